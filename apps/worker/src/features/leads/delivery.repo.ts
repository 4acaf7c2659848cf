/** Records on the platform's submission where its ERP record is. */
import type { Db } from '@platform/db';
import type { DeliveryRecorder } from './lead-delivery.service.js';

export function submissionRecorder(db: Db): DeliveryRecorder {
  return {
    async markDelivered(submissionId, model, erpId) {
      await db.query('UPDATE submissions SET erp_model = $2, erp_id = $3, delivered_at = coalesce(delivered_at, now()) WHERE id = $1', [
        submissionId,
        model,
        erpId,
      ]);
    },
  };
}
