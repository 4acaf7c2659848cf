/** An SMS line as the CLI, the admin API and the console show it. */
import type { SmsLineView } from '@platform/contracts';

import type { SmsLineRow } from './settings.repo.js';

export const smsLineView = (l: SmsLineRow): SmsLineView => ({
  id: l.id,
  name: l.name,
  phone_number: l.phone_number,
  type: l.line_type,
  is_default: l.is_default,
});
