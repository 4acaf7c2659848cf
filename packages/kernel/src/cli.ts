/**
 * The entry of every command-line tool (`npm run restapi`, `erp`, `integrations`, `outbox`,
 * `migrate`): `--help`/`-h` prints the usage and exits 0 without touching a database; a bad argument,
 * a bad environment variable or a refused operation prints one line (`error: …`) and the exit code,
 * never a stack trace.
 */
import { AppError } from './app-error.js';
import { ConfigError } from './config.js';
import { usePrivateUmask } from './private-files.js';

export function wantsHelp(argv: readonly string[]): boolean {
  return argv.includes('--help') || argv.includes('-h') || argv[0] === 'help';
}

/** Runs `run(argv)`, prints `usage` for --help, and exits with its code (2 for a usage error). */
export async function runCliMain(
  usage: string,
  run: (argv: string[]) => Promise<number>,
  argv = process.argv.slice(2),
): Promise<never> {
  let code: number;
  usePrivateUmask(); // what a CLI writes under DATA_DIR is owner-only, like the services' files
  if (wantsHelp(argv)) {
    process.stdout.write(`${usage}\n`);
    code = 0;
  } else {
    try {
      code = await run(argv);
    } catch (e) {
      code = reportCliError(e, usage);
    }
  }
  // Let piped output drain before exiting (open database pools would otherwise keep the loop alive).
  await new Promise<void>((r) => process.stdout.write('', () => r()));
  process.exit(code);
}

function reportCliError(e: unknown, usage: string): number {
  const err = e as NodeJS.ErrnoException;
  if (typeof err?.code === 'string' && err.code.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`error: ${err.message}\n${usage}\n`);
    return 2;
  }
  if (e instanceof ConfigError) {
    process.stderr.write(`${e.message}\n`);
    return 1;
  }
  const fields =
    e instanceof AppError && e.fieldIssues?.length
      ? `\n${e.fieldIssues.map((f) => `  ${f.field}: ${f.message}`).join('\n')}`
      : '';
  process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}${fields}\n`);
  return 1;
}
