export { closedError, type Db, type Queryable, type QueryResult, rowExists } from './db.js';
export { createPgDb } from './pg.client.js';
export { createPgliteDb } from './pglite.client.js';
export { openDb, type OpenDbOptions } from './open-db.js';
export { migrate, migratePlatform, listMigrations, quoteIdent, PLATFORM_MIGRATIONS_DIR } from './migrate.js';
export { enterTenant, withTenant } from './tenant-scope.js';
export { createTestDb, withDatabase, type TestDb, type TestDbOptions } from './test-db.js';
export { createTwoTenantDb } from './testing/two-tenant-db.js';
