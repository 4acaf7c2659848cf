export {
  createSecretBox,
  parseKeyring,
  loadOrCreateLocalKeyring,
  maskSecret,
  secretBoxFromConfig,
  type SecretBox,
  type Keyring,
} from './secret-box.js';
