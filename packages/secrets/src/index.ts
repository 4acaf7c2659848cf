export { createSecretBox, parseKeyring, loadOrCreateLocalKeyring, maskSecret, type SecretBox, type Keyring } from './secret-box.js';
