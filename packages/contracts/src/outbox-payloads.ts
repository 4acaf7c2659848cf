/**
 * Topic → payload: the one map `enqueue` and the relay's handlers are typed by. A new topic is one
 * constant in outbox-topics.ts and one line here; a payload of the wrong shape does not compile.
 */
import type { DepositErpPayload, TOPIC_DEPOSIT_ERP } from './deposit-erp.js';
import type { InventoryReservePayload, TOPIC_INVENTORY_RESERVE } from './inventory.js';
import type {
  InvoiceAutoJob,
  InvoiceCardPaymentJob,
  InvoiceCardRefundJob,
  TOPIC_INVOICE_AUTO,
  TOPIC_INVOICE_CARD_PAYMENT,
  TOPIC_INVOICE_CARD_REFUND,
} from './invoicing.js';
import type { OrderWonPayload, TOPIC_ORDER_WON } from './order-won.js';
import type {
  AccountingWebhookJob,
  ConversionPayload,
  DerivedJobPayload,
  EmailJobPayload,
  ErpEventPayload,
  EstimatePayload,
  HelpdeskPayload,
  SmsJobPayload,
  TOPIC_ACCOUNTING_PUSH_INVOICE,
  TOPIC_ACCOUNTING_PUSH_MONEY,
  TOPIC_ACCOUNTING_WEBHOOK,
  TOPIC_CHAT_NOTIFY,
  TOPIC_CONVERSION,
  TOPIC_EMAIL_BULK,
  TOPIC_EMAIL_TRANSACTIONAL,
  TOPIC_ESTIMATE,
  TOPIC_FSM_STAGE_CHANGED,
  TOPIC_HELPDESK,
  TOPIC_INVOICE_POSTED,
  TOPIC_PO_CONFIRMED,
  TOPIC_SALE_CONFIRMED,
  TOPIC_SMS_INBOUND,
  TOPIC_SMS_SEND,
  TOPIC_WEBHOOK_DELIVERY,
  TOPIC_WEBHOOK_EVENT,
  WebhookDeliveryJob,
  WebhookEventPayload,
} from './outbox-topics.js';
import type { SupplyDraftPayload, TOPIC_SUPPLY_DRAFT } from './supply-orders.js';

export interface OutboxPayloads {
  [TOPIC_ESTIMATE]: EstimatePayload;
  [TOPIC_HELPDESK]: HelpdeskPayload;
  [TOPIC_CONVERSION]: ConversionPayload;
  [TOPIC_FSM_STAGE_CHANGED]: ErpEventPayload;
  [TOPIC_SALE_CONFIRMED]: ErpEventPayload;
  [TOPIC_INVOICE_POSTED]: ErpEventPayload;
  [TOPIC_PO_CONFIRMED]: ErpEventPayload;
  [TOPIC_CHAT_NOTIFY]: DerivedJobPayload;
  [TOPIC_ACCOUNTING_PUSH_INVOICE]: DerivedJobPayload;
  [TOPIC_ACCOUNTING_WEBHOOK]: AccountingWebhookJob;
  [TOPIC_ACCOUNTING_PUSH_MONEY]: ErpEventPayload;
  [TOPIC_SMS_SEND]: SmsJobPayload;
  [TOPIC_SMS_INBOUND]: SmsJobPayload;
  [TOPIC_EMAIL_TRANSACTIONAL]: EmailJobPayload;
  [TOPIC_EMAIL_BULK]: EmailJobPayload;
  [TOPIC_WEBHOOK_EVENT]: WebhookEventPayload;
  [TOPIC_WEBHOOK_DELIVERY]: WebhookDeliveryJob;
  [TOPIC_ORDER_WON]: OrderWonPayload;
  [TOPIC_DEPOSIT_ERP]: DepositErpPayload;
  [TOPIC_INVOICE_CARD_PAYMENT]: InvoiceCardPaymentJob;
  [TOPIC_INVOICE_CARD_REFUND]: InvoiceCardRefundJob;
  [TOPIC_INVOICE_AUTO]: InvoiceAutoJob;
  [TOPIC_SUPPLY_DRAFT]: SupplyDraftPayload;
  [TOPIC_INVENTORY_RESERVE]: InventoryReservePayload;
}

export type OutboxTopic = keyof OutboxPayloads;
