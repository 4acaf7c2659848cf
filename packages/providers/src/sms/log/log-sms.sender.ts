/**
 * Log driver for SMS: sends nothing and logs ids only (a generated message id and the body
 * length), never phone numbers or text. For development and installs without an SMS provider.
 */
import { randomUUID } from 'node:crypto';

import {
  E164_DIGITS,
  MAX_SMS_BODY_LENGTH,
  SmsError,
  type SmsSender,
  type SmsSendInput,
  type SmsSendResult,
} from '../sms.port.js';

export interface SmsLogger {
  info(obj: Record<string, unknown>, msg: string): void;
}

export function createLogSmsSender(logger: SmsLogger): SmsSender {
  return {
    async send(input: SmsSendInput): Promise<SmsSendResult> {
      // Same input rules as a real adapter, so development catches what production would refuse.
      if (!E164_DIGITS.test(input.from) || !E164_DIGITS.test(input.to))
        throw new SmsError('invalid_input', 'SMS log driver: from and to must be E.164 digits without +');
      if (input.body.trim() === '' || input.body.length > MAX_SMS_BODY_LENGTH)
        throw new SmsError('invalid_input', `SMS log driver: body must have 1..${MAX_SMS_BODY_LENGTH} characters`);
      const providerMessageId = `log-${randomUUID()}`;
      logger.info(
        { driver: 'log', providerMessageId, bodyLength: input.body.length },
        'sms: message recorded by the log driver (not sent)',
      );
      return { providerMessageId, status: 'queued' };
    },
  };
}
