import { describe, expect, it } from 'vitest';

import { parseFormSource } from './form-source.parser.js';
import { FORCE_SUFFIX, LP_PLACEMENTS, POPUP_TRIGGERS, popupSuffix } from './form-source.vocabulary.js';

describe('form-source vocabulary (what the site writes, the parser reads)', () => {
  it('each trigger suffix the popup appends parses back to that trigger', () => {
    for (const trigger of POPUP_TRIGGERS) {
      expect(parseFormSource(`home_popup${popupSuffix(trigger)}`)).toMatchObject({
        kind: 'popup',
        trigger,
        forced: false,
      });
    }
  });

  it('the QA force suffix parses as forced with no trigger', () => {
    expect(popupSuffix('force')).toBe(FORCE_SUFFIX);
    expect(parseFormSource(`faq_popup${popupSuffix('force')}`)).toMatchObject({
      kind: 'popup',
      trigger: null,
      forced: true,
    });
  });

  it('every LP v2 placement parses as that placement', () => {
    for (const placement of LP_PLACEMENTS) {
      expect(parseFormSource(`lp-spring-sale_${placement}`)).toMatchObject({
        kind: 'lp_v2',
        slug: 'spring-sale',
        placement,
      });
    }
  });
});
