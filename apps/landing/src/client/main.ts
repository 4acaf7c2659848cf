/** The site's only script: attribution fields, JSON form posting and the L2 popup. */
import { captureAttribution, fillHiddenFields } from './attribution.js';
import { initForms } from './forms.js';
import { initMenu } from './menu.js';
import { initPopup, markSubmitted } from './popup.js';

fillHiddenFields(document, captureAttribution(location.search, document.body.dataset.lpSlug));
initForms(() => markSubmitted());
initPopup();
initMenu();
