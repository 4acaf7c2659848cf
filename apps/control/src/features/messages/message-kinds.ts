/**
 * The kinds of customer message (docs/messages.md), their built-in templates and the placeholder
 * substitution. Substitution is "safe": only the names below are known, a value is inserted as plain
 * text (the email template escapes it into HTML), and a template naming anything else is refused
 * when it is saved, so a typo never reaches a customer as `{{frist_name}}`.
 */
import { AppError } from '@platform/kernel';

export const MESSAGE_KINDS = [
  'appointment_confirmed',
  'reminder',
  'on_my_way',
  'job_done',
  'review_request',
  'quote_follow_up',
  'ready_to_fit',
  'invoice_reminder',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
export const isMessageKind = (s: string): s is MessageKind => (MESSAGE_KINDS as readonly string[]).includes(s);

export const PLACEHOLDERS = [
  'first_name',
  'company',
  'window',
  'date',
  'technician',
  'eta',
  'portal_link',
  'review_link',
  'quote_number',
  'invoice_number',
  'amount_due',
  'quote_nudge',
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export type MessageVars = Partial<Record<Placeholder, string>>;

export interface Template {
  sms: string;
  subject: string;
  email: string;
}

/** Reminders and follow-ups are marketing-like ("bulk" lane); the rest answer something the customer did. */
export const BULK_KINDS: readonly MessageKind[] = ['reminder', 'review_request', 'quote_follow_up', 'invoice_reminder'];

export const DEFAULT_TEMPLATES: Record<MessageKind, Template> = {
  appointment_confirmed: {
    // The link opens the appointment's page (date, window, technician, "Add to calendar"); '' without one.
    sms: '{{company}}: hi {{first_name}}, your appointment is booked for {{date}}, {{window}} with {{technician}}. {{portal_link}}',
    subject: 'Your appointment with {{company}} on {{date}}',
    email:
      'Hello {{first_name}},\n\nYour appointment is booked for {{date}}, {{window}}. {{technician}} will come to you.\n\n{{portal_link}}',
  },
  reminder: {
    sms: '{{company}}: a reminder that we see you tomorrow, {{date}}, {{window}}. {{portal_link}}',
    subject: 'See you tomorrow: {{date}}, {{window}}',
    email: 'Hello {{first_name}},\n\nA reminder of your appointment tomorrow, {{date}}, {{window}}.\n\n{{portal_link}}',
  },
  on_my_way: {
    sms: '{{company}}: {{technician}} is on the way and should arrive in about {{eta}} minutes.',
    subject: '{{technician}} from {{company}} is on the way',
    email:
      'Hello {{first_name}},\n\n{{technician}} is on the way and should arrive in about {{eta}} minutes.\n\n{{portal_link}}',
  },
  job_done: {
    sms: '{{company}}: thank you {{first_name}}, your job is done. Enjoy your new window coverings!',
    subject: 'Thank you from {{company}}',
    email: 'Hello {{first_name}},\n\nThank you: your job is done. Enjoy your new window coverings!',
  },
  review_request: {
    sms: '{{company}}: how did we do, {{first_name}}? A review helps us a lot: {{review_link}}',
    subject: 'How did {{company}} do?',
    email: 'Hello {{first_name}},\n\nHow did we do? A short review helps us a lot:\n{{review_link}}',
  },
  quote_follow_up: {
    // {{quote_nudge}}: "your quote is waiting for you." when not opened, a thank-you for looking when opened.
    sms: '{{company}}: hi {{first_name}}, {{quote_nudge}} Any questions about your quote {{quote_number}}? {{portal_link}}',
    subject: 'Your quote {{quote_number}} from {{company}}',
    email:
      'Hello {{first_name}},\n\n{{quote_nudge}} Do you have any questions about your quote {{quote_number}}?\n\n{{portal_link}}',
  },
  ready_to_fit: {
    sms: '{{company}}: good news {{first_name}}, your order is in. We will call you to book the fitting.',
    subject: 'Your order is ready to fit',
    email: 'Hello {{first_name}},\n\nGood news: your order is in. We will be in touch to book the fitting.',
  },
  invoice_reminder: {
    sms: '{{company}}: a reminder that invoice {{invoice_number}} ({{amount_due}}) is due. {{portal_link}}',
    subject: 'Invoice {{invoice_number}} is due',
    email:
      'Hello {{first_name}},\n\nA reminder that invoice {{invoice_number}} ({{amount_due}}) is due.\n\n{{portal_link}}',
  },
};

const TOKEN = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** The template with each known placeholder replaced by its value ('' when the message has none). */
export function fill(template: string, vars: MessageVars): string {
  return template
    .replace(TOKEN, (_, name: string) =>
      (PLACEHOLDERS as readonly string[]).includes(name) ? (vars[name as Placeholder] ?? '') : '',
    )
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/** Refuses a template naming an unknown placeholder (VALIDATION_FAILED on `field`). */
export function assertTemplate(field: string, template: string): void {
  for (const m of template.matchAll(TOKEN)) {
    if (!(PLACEHOLDERS as readonly string[]).includes(m[1]!))
      throw new AppError('VALIDATION_FAILED', `${field} names an unknown placeholder {{${m[1]}}}.`, {
        fieldIssues: [
          { field, rule: 'placeholder', message: `unknown placeholder {{${m[1]}}}; known: ${PLACEHOLDERS.join(', ')}` },
        ],
      });
  }
}

/** Sample values for the preview. */
export const SAMPLE_VARS: MessageVars = {
  first_name: 'Jane',
  window: '10:00–12:00',
  date: 'Tuesday 1 December',
  technician: 'Alex',
  eta: '20',
  portal_link: 'https://example.com/portal/sample',
  review_link: 'https://example.com/review',
  quote_number: 'S00042',
  invoice_number: 'INV/2026/0001',
  amount_due: '$1,250.00',
  quote_nudge: 'your quote is waiting for you.',
};
