/** What the Settings screens say: plan refusals naming the plan, and the Developers screen's HTML. */
import type { WebhookDeliveryView, WebhookEndpointView } from '@platform/contracts/webhook.js';
import { describe, expect, it } from 'vitest';

import { ApiError } from '../field/api.js';
import { developersHtml } from './developers.view.js';
import { planRefusal } from './settings-common.js';

const endpoint: WebhookEndpointView = {
  id: 'e1',
  url: 'https://hooks.example.com/in?token=abc',
  description: null,
  events: ['lead.created'],
  enabled: false,
  disabled_reason: 'gone',
  created_at: '2026-11-27T10:00:00Z',
  updated_at: '2026-11-27T10:00:00Z',
};
const delivery = (id: number): WebhookDeliveryView => ({
  id,
  event_type: 'lead.created',
  webhook_id: `msg_${id}`,
  status: 'failed',
  attempts: 24,
  last_status_code: 500,
  last_duration_ms: 12,
  last_error: 'HTTP 500',
  last_attempt_at: '2026-11-27T10:05:00Z',
  created_at: '2026-11-27T10:00:00Z',
});

describe('plan refusals', () => {
  it('name the plan that unlocks a missing feature', () => {
    const e = new ApiError(403, {
      code: 'PLAN_FEATURE_MISSING',
      detail: 'The Starter plan does not include api access.',
      required_plan: 'professional',
    });
    expect(planRefusal(e)).toBe('The Starter plan does not include api access. The Professional plan unlocks it.');
  });

  it('name the plan that allows more when a limit is reached', () => {
    const e = new ApiError(403, {
      code: 'PLAN_LIMIT_REACHED',
      detail: 'The Free plan allows 1 technician.',
      upgrade_to: 'starter',
    });
    expect(planRefusal(e)).toBe('The Free plan allows 1 technician. The Starter plan allows more.');
  });

  it('leave every other refusal to the usual wording', () => {
    expect(planRefusal(new ApiError(403, { code: 'ROLE_FORBIDDEN' }))).toBeUndefined();
    expect(planRefusal(new Error('x'))).toBeUndefined();
  });
});

describe('the Developers screen', () => {
  it('shows the secret only when it was just made, with the sentence that it will not be shown again', () => {
    expect(developersHtml([endpoint], {})).not.toContain('new-secret');
    const html = developersHtml([endpoint], { secret: 'whsec_abc', secretFor: 'of the new endpoint' });
    expect(html).toContain('value="whsec_abc"');
    expect(html).toContain("won't be shown again");
  });

  it('says why an endpoint is disabled and offers to enable it', () => {
    const html = developersHtml([endpoint], {});
    expect(html).toContain('Disabled (the receiver answered 410 Gone)');
    expect(html).toMatch(/data-toggle="e1" data-enable="true">Enable/);
    expect(html).toContain('<h3 style="margin-top:0" class="wrap-any">hooks.example.com</h3>');
  });

  it('asks for a second press before deleting', () => {
    expect(developersHtml([endpoint], {})).toMatch(/data-delete="e1">Delete/);
    expect(developersHtml([endpoint], { armed: 'delete:e1' })).toMatch(/data-delete="e1">Confirm: delete/);
  });

  it('lists the log with a Replay per delivery and pages it', () => {
    const log = { endpointId: 'e1', items: [delivery(7), delivery(6)], page: 1, pageSize: 2, total: 3 };
    const html = developersHtml([endpoint], { log });
    expect(html.match(/data-replay="\d+"/g)).toEqual(['data-replay="7"', 'data-replay="6"']);
    expect(html).toContain('24 attempts · response 500 · 12 ms');
    expect(html).toMatch(/data-log-page="0" disabled>Newer/);
    expect(html).toContain('Page 1 of 2');
    expect(html).toMatch(/data-log-page="2">Older/);
  });
});
