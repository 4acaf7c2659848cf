export {
  ObjectNotFoundError,
  assertValidKey,
  readAll,
  type ObjectStore,
  type StoredObject,
  type PresignOptions,
} from './storage.port.js';
export { createLocalObjectStore, type LocalStoreOptions } from './local.driver.js';
export { createS3ObjectStore, type S3StoreOptions } from './s3/s3.adapter.js';
export { loadStoreConfig, openObjectStore, objectStoreFromEnv, type StoreConfig } from './storage.config.js';
