export * from './endpoints.repo.js';
export * from './deliveries.repo.js';
export * from './webhook-secret.js';
export { postSigned, signedHeaders, type AttemptResult, type SignedPost } from './signed-post.js';
export { enqueueWebhookEvent, WebhookDispatch, type WebhookDispatchOptions } from './webhook-dispatch.js';
export { addressAllowed, deliveryRefusal, webhookUrlAllowed } from './webhook-url.js';
