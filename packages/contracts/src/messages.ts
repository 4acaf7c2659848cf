/**
 * Customer messages (docs/messages.md): the office's Settings → Customer messages and the customer's
 * timeline, as the control plane answers them and the office app reads them.
 */
export const MESSAGE_CHANNELS = ['sms', 'email', 'both'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

export interface MessageKindSettings {
  kind: string;
  label: string;
  enabled: boolean;
  sms: string;
  subject: string;
  email: string;
}

export interface MessageSettings {
  reminder_hour: number;
  review_link: string | null;
  review_delay_hours: number;
  quote_follow_up_days: number;
  invoice_reminder_days: number;
  /** The company's zone: reminders and quiet hours (21:00–08:00) are in it. */
  time_zone: string;
  placeholders: string[];
  kinds: MessageKindSettings[];
}

export interface MessagePreview {
  sms: string;
  subject: string;
  email: string;
}

/** One automatic message of a customer's timeline: sent (by which channels) or skipped, and why. */
export interface AutoMessage {
  id: string;
  kind: string;
  label: string;
  status: 'sent' | 'skipped';
  channels: string[];
  reason: string | null;
  text: string | null;
  at: string;
}

/** GET /customers/{id}/messages: the customer's automatic messages, newest first, and their channel. */
export interface AutoMessages {
  channel: MessageChannel;
  messages: AutoMessage[];
}
