/** The worker's secret box (SECRETS_KEYRING, else the embedded keyring); a bad keyring is a config error. */
import { ConfigError } from '@platform/kernel';
import { type SecretBox, secretBoxFromConfig } from '@platform/secrets';

export function secretBoxFrom(c: Parameters<typeof secretBoxFromConfig>[0]): SecretBox {
  try {
    return secretBoxFromConfig(c);
  } catch (e) {
    throw new ConfigError(`Invalid configuration:\n  ${(e as Error).message}`);
  }
}
