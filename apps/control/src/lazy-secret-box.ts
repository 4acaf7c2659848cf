/** A secret box made at its first use: a process that never seals or opens never needs the key. */
import type { SecretBox } from '@platform/secrets';

export function lazySecretBox(make: () => SecretBox): SecretBox {
  let box: SecretBox | undefined;
  const get = () => (box ??= make());
  return {
    seal: (p, aad) => get().seal(p, aad),
    open: (c, aad) => get().open(c, aad),
    reseal: (c, aad) => get().reseal(c, aad),
  };
}
