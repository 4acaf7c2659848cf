/**
 * Outbox topics and their payloads: what the landing host commits and the worker delivers. The
 * payload carries everything delivery needs, so the worker never reads another app's tables.
 */
import type { FormSource } from '@platform/attribution';

export const TOPIC_ESTIMATE = 'submission.estimate';
export const TOPIC_HELPDESK = 'submission.helpdesk';
export const TOPIC_CONVERSION = 'conversions.lead';

/** The attribution hidden fields, kept verbatim on the platform's submission record. */
export const ATTRIBUTION_FIELDS = [
  'gclid',
  'gbraid',
  'wbraid',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'lp_slug',
] as const;
export type AttributionField = (typeof ATTRIBUTION_FIELDS)[number];
export type Attribution = Partial<Record<AttributionField, string>>;

export interface EstimatePayload {
  submissionId: string;
  /** ERP database of the tenant (null: the platform's default ERP_DB). */
  erpDb: string | null;
  contact: { name: string; email: string | null; phone: string | null; zip: string | null };
  products: string[];
  message: string | null;
  formSource: FormSource;
  attribution: Attribution;
  /** Lead tags decided at intake (`SITE: …`, `LP: …`, `PHONE CALLBACK`). */
  tags: string[];
  gpc: boolean;
  submittedAt: string;
}

export interface HelpdeskPayload {
  submissionId: string;
  erpDb: string | null;
  contact: { name: string; email: string; phone: string | null };
  subject: string;
  message: string;
  submittedAt: string;
}

export interface ConversionPayload {
  eventId: string;
  eventTime: number;
  eventSourceUrl: string;
  user: {
    email?: string;
    phone?: string;
    firstName?: string;
    lastName?: string;
    clientIpAddress?: string;
    clientUserAgent?: string;
    fbc?: string;
    fbp?: string;
  };
  customData?: Record<string, unknown>;
}
