/** The secret box of the worker: SECRETS_KEYRING from the environment, else the local keyring of embedded mode. */
import { createSecretBox, loadOrCreateLocalKeyring, parseKeyring, type SecretBox } from '@platform/secrets';
import { ConfigError } from '@platform/kernel';

export function secretBoxFrom(c: { SECRETS_KEYRING?: string | undefined; SECRETS_ACTIVE_KEY?: string | undefined; DATA_DIR: string }): SecretBox {
  if (!c.SECRETS_KEYRING) return createSecretBox(loadOrCreateLocalKeyring(c.DATA_DIR));
  try {
    return createSecretBox(parseKeyring(c.SECRETS_KEYRING, c.SECRETS_ACTIVE_KEY));
  } catch (e) {
    throw new ConfigError(`Invalid configuration:\n  SECRETS_KEYRING: ${(e as Error).message}`);
  }
}
