/**
 * Every message a visitor can read about a form, in one place: the client script shows them for
 * its own checks and for the API's problem bodies (whose `errors[].rule` stays machine-readable),
 * and the server uses the page copy for visitors without JavaScript. Keyed by field, then rule.
 * The API's own `message` strings are never shown: they are written for developers.
 */

const ONE_OF = 'Please give a phone number or an email address.';
const TOO_LONG = 'Please shorten this; it is longer than we can take.';

/** field -> rule -> message. `_` is the field's message for a rule not listed. */
export const FIELD_MESSAGES: Record<string, Record<string, string>> = {
  name: {
    required: 'Please enter your name.',
    max_length: 'Please shorten your name to 100 characters.',
    _: 'Please enter your name.',
  },
  email: {
    required: 'Please enter your email address.',
    required_one_of: ONE_OF,
    _: 'Please enter an email address like name@example.com.',
  },
  phone: { required_one_of: ONE_OF, _: 'Please enter a phone number with its area code, like (303) 555-0142.' },
  zip: { _: 'Please enter a 5-digit ZIP code, like 80211 (or ZIP+4, like 80211-1234).' },
  products: { _: 'Please choose from the products listed.' },
  subject: { _: 'Please choose what your request is about.' },
  message: {
    max_length: 'Please shorten your message; it is longer than we can take.',
    _: 'Please tell us how we can help.',
  },
  captcha_token: { _: 'We could not run our spam check. Please try again.' },
};

/** Rules that read the same for every field. */
const ANY_FIELD: Record<string, string> = { max_length: TOO_LONG };

/** The message for one field and rule; the API may name rules this catalogue does not know yet. */
export function fieldMessage(field: string, rule: string): string {
  // An empty string fails `min_length`: to a visitor that is a missing answer.
  const r = rule === 'min_length' ? 'required' : rule;
  const f = FIELD_MESSAGES[field];
  return f?.[r] ?? ANY_FIELD[r] ?? f?._ ?? 'Please check this answer.';
}

/** Messages about the form as a whole, by problem `code` (or what went wrong). `{phone}` is filled in. */
export const FORM_MESSAGES: Record<string, string> = {
  fix: 'Please correct the highlighted fields.',
  CAPTCHA_MISSING:
    'We could not run our spam check, so your request was not sent. Please try again, or call us at {phone}.',
  CAPTCHA_REJECTED: 'Our spam check did not let your request through. Please try again, or call us at {phone}.',
  RATE_LIMITED: 'You have sent several requests in a short time. Please wait a minute and try again.',
  busy: 'Our system is busy, so your request was not sent. Please try again in a minute, or call us at {phone}.',
  network: 'We could not reach our server. Please check your connection and try again.',
  other: 'Something went wrong and your request was not sent. Please try again, or call us at {phone}.',
};

export function formMessage(code: string | undefined, status: number, phone: string): string {
  const key = code && code in FORM_MESSAGES ? code : status === 0 ? 'network' : status >= 500 ? 'busy' : 'other';
  return FORM_MESSAGES[key]!.replace('{phone}', phone || 'the number at the bottom of this page');
}

/** The page a form posted without JavaScript lands on (rendered by src/site/no-script.view.ts). */
export const NO_SCRIPT_PAGE = {
  title: 'Your request was not sent',
  lead: 'Our forms need JavaScript to run the spam check that keeps them open to everyone, and it is switched off or blocked in your browser, so nothing was sent.',
  call: 'Call us at {phone}, {hours}: we can book your free estimate on the phone.',
  other:
    'Or turn JavaScript on and send the form again. For service on blinds or shades you already have, see our helpdesk.',
  /** Shown inside every form when JavaScript is off, before anyone types. */
  notice: 'This form needs JavaScript for its spam check. Without it, call us at {phone} or email {email}.',
  /** The notice on a site that lists no phone or no email yet. */
  noticeBare: 'This form needs JavaScript for its spam check. Please turn it on to send the form.',
} as const;
