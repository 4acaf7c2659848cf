/**
 * `npm run restapi -- <command>`: REST API keys and OAuth2 applications (docs/rest-api.md). Secrets
 * are printed once and stored only as SHA-256. Works while the platform runs: on PGlite the running
 * process serves its databases to the CLI (packages/db pglite.serve.ts).
 */
import { parseArgs } from 'node:util';

import { AppError, runCliMain } from '@platform/kernel';

import { withRestApiCli } from './deps.js';
import { loadErpConfig } from './erp.config.js';
import type { composeCredentials } from './restapi.compose.js';

export const USAGE = `usage: npm run restapi -- key create --login <login> --description <text> --scope "<scopes>"
       npm run restapi -- key list | key revoke <id>
       npm run restapi -- app create --name <name> --redirect-uri <uri> [--redirect-uri <uri>...] --scope "<scopes>" [--run-as <login>]
       npm run restapi -- app list | app revoke <id> | app rotate-secret <id>
       npm run restapi -- audit [--limit <n>]
scopes: read:<model> write:<model> method:<model>.<action_method>  (e.g. "read:res.partner write:crm.lead")`;

type Credentials = ReturnType<typeof composeCredentials>;

/** A plan refusal names its problem code and the plan to move to, as the HTTP answer does. */
const withPlanCode = (e: unknown): never => {
  if (e instanceof AppError && e.code === 'PLAN_FEATURE_MISSING')
    throw new Error(`PLAN_FEATURE_MISSING: ${e.message} It comes with the ${String(e.details?.required_plan)} plan.`);
  throw e;
};
/** true/false when the ERP could say whether the login is an active user; undefined when unreachable. */
export type UserCheck = (login: string) => Promise<boolean | undefined>;

export async function runRestApiCli(
  argv: string[],
  c: Credentials,
  userExists: UserCheck,
  out: (s: string) => void,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      login: { type: 'string' },
      description: { type: 'string' },
      scope: { type: 'string' },
      name: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      'run-as': { type: 'string' },
      limit: { type: 'string' },
    },
  });
  const [group, cmd, arg] = positionals;
  const id = arg && /^\d+$/.test(arg) ? Number(arg) : undefined;
  const checkUser = async (login: string) => {
    const known = await userExists(login);
    if (known === false) throw new Error(`no active ERP user with login "${login}"`);
    if (known === undefined) out(`warning: the ERP could not be asked whether "${login}" exists`);
  };
  if (group === 'key' && cmd === 'create') {
    if (!values.login || !values.description || !values.scope)
      throw new Error('--login, --description and --scope are required');
    await checkUser(values.login);
    const { key, info } = await c.keys
      .create({ login: values.login, description: values.description, scope: values.scope })
      .catch(withPlanCode);
    out(
      `API key ${info.id} (prefix ${info.prefix}) created for ${info.login} with scope "${info.scopes.join(' ')}".\nIt is shown only once; send it as X-API-Key:\n${key}`,
    );
  } else if (group === 'key' && cmd === 'list') {
    for (const k of await c.keys.list()) {
      const state = k.revokedAt ? `revoked ${k.revokedAt}` : `last used ${k.lastUsedAt ?? 'never'}`;
      out(
        `${k.id}\t${k.prefix}\t${k.login}\t${k.description}\tcreated ${k.createdAt}\t${state}\t${k.scopes.join(' ')}`,
      );
    }
  } else if (group === 'key' && cmd === 'revoke' && id !== undefined) {
    const k = await c.keys.revoke(id);
    out(`API key ${k.id} (${k.prefix}) revoked`);
  } else if (group === 'app' && cmd === 'create') {
    if (!values.name || !values['redirect-uri']?.length || !values.scope)
      throw new Error('--name, --redirect-uri and --scope are required');
    if (values['run-as']) await checkUser(values['run-as']);
    const { app, clientSecret } = await c.apps.create({
      name: values.name,
      redirectUris: values['redirect-uri'],
      scope: values.scope,
      runAsLogin: values['run-as'] ?? null,
    });
    out(
      `OAuth application ${app.id} "${app.name}" created.\nclient_id:     ${app.clientId}\nclient_secret: ${clientSecret}\n(the secret is shown only once)`,
    );
  } else if (group === 'app' && cmd === 'list') {
    for (const a of await c.apps.list()) {
      out(
        `${a.id}\t${a.clientId}\t${a.name}\t${a.revokedAt ? `revoked ${a.revokedAt}` : 'live'}\t${a.scopes.join(' ')}\t${a.redirectUris.join(' ')}${a.runAsLogin ? `\trun as ${a.runAsLogin}` : ''}`,
      );
    }
  } else if (group === 'app' && cmd === 'revoke' && id !== undefined) {
    out(`OAuth application ${(await c.apps.revoke(id)).id} revoked, with every token it held`);
  } else if (group === 'app' && cmd === 'rotate-secret' && id !== undefined) {
    const { clientSecret } = await c.apps.rotateSecret(id);
    out(`New client_secret of application ${id} (shown only once; the old one no longer works):\n${clientSecret}`);
  } else if (group === 'audit') {
    for (const e of await c.audit.list(Number(values.limit ?? 50))) {
      out(
        `${new Date(e.created_at).toISOString()}\t${e.event}\tkey ${e.key_id ?? '-'}\tapp ${e.app_id ?? '-'}\t${e.login ?? '-'}\t${e.client_ip ?? '-'}\t${JSON.stringify(e.detail)}`,
      );
    }
  } else {
    out(USAGE);
    return 2;
  }
  return 0;
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!);
if (isMain) {
  await runCliMain(USAGE, async (argv) => {
    // The ERP's users live in the ERP database, the REST credentials in the platform database (the
    // same PostgreSQL, or PGlite's DATA_DIR/erp and DATA_DIR/platform, served by the running
    // platform when it owns them), as for the server.
    return withRestApiCli(loadErpConfig(), (credentials, userExists) =>
      runRestApiCli(argv, credentials, userExists, (s) => process.stdout.write(`${s}\n`)),
    );
  });
}
