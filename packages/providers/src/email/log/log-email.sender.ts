/** The embedded default when no provider is configured: logs who would get what (never the body). */
import type { EmailMessage, EmailSender, EmailSendResult } from '../email.port.js';

export function createLogEmailSender(logger: { info(obj: object, msg?: string): void }): EmailSender {
  return {
    name: 'log',
    async send(m: EmailMessage): Promise<EmailSendResult> {
      logger.info(
        {
          email_id: m.id,
          tenant_id: m.tenantId,
          lane: m.lane,
          to_domain: m.to.address.split('@')[1],
          subject: m.subject,
          tags: m.tags,
        },
        'email (log driver, not sent)',
      );
      return { provider: 'log', providerMessageId: m.id };
    },
  };
}
