/**
 * The one way every app takes request bodies (docs/public-api.md "Input rules"):
 * - JSON bodies are decoded by their declared charset (UTF-16 included) before parsing, with
 *   Fastify's own parser (prototype poisoning refused) and the app's body limit;
 * - no other media type is parsed unless a route scope adds it (so `text/plain` is a 415);
 * - every string of the parsed path parameters, query and body is checked for NUL and lone
 *   surrogates before validation, so nothing reaches the bot check or the database with one;
 * - webhook scopes take any body raw (`acceptRawBodies`), since their signature covers the bytes.
 * Errors are thrown as AppErrors: registerProblemHandlers (or a protocol's own handler) answers them.
 */
import { AppError } from '@platform/kernel';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { sendProblem } from '../error-handler.plugin.js';
import { decodeBody } from './body-charset.js';
import { assertCleanJson, assertCleanStrings } from './string-guard.js';

export interface InputHandlingOptions {
  /** Media types parsed as JSON; default `application/json`. */
  jsonTypes?: string[];
}

/** A content-type parser (parseAs buffer) that decodes by charset, then parses JSON as Fastify does. */
export function charsetJsonParser(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  return (req: FastifyRequest, body: Buffer, done: (err: Error | null, body?: unknown) => void): void => {
    let text: string;
    try {
      text = decodeBody(body, req.headers['content-type']);
    } catch (e) {
      done(e as Error);
      return;
    }
    // Most bodies cannot hold a bad string at all: no NUL and no \u0000 or \uD800-\uDFFF escape in
    // the text (valid UTF-8 and UTF-16 decode to no lone surrogate). Those skip the walk over the value.
    if (!SUSPECT.test(text)) cleanBodies.add(req);
    // Fastify's default JSON parser is the callback form; its type also admits the promise form.
    void parseJson(req, text, done);
  };
}

// eslint-disable-next-line no-control-regex -- NUL is what this looks for
const SUSPECT = /\u0000|\\u(?:0000|[dD][89a-fA-F])|[\uD800-\uDFFF]/;
const cleanBodies = new WeakSet<FastifyRequest>();

export function registerInputHandling(app: FastifyInstance, opts: InputHandlingOptions = {}): void {
  app.removeAllContentTypeParsers();
  const parser = charsetJsonParser(app);
  for (const type of opts.jsonTypes ?? ['application/json'])
    app.addContentTypeParser(type, { parseAs: 'buffer' }, parser);
  app.addHook('preValidation', (req, _reply, done) => {
    try {
      assertCleanStrings(cleanBodies.has(req) ? { params: req.params, query: req.query } : req);
      done();
    } catch (e) {
      done(e as Error);
    }
  });
}

/**
 * In a webhook's own scope: every body, whatever its media type, arrives as the raw Buffer (the
 * signature covers the bytes). A body that is JSON is still checked for strings the database cannot
 * store, so a signed event carrying one is refused with the same 422 rather than failing as a 500.
 */
export function acceptRawBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  scope.addHook('preValidation', (req, _reply, done) => {
    let parsed: unknown;
    try {
      parsed =
        Buffer.isBuffer(req.body) && req.body.length
          ? JSON.parse(decodeBody(req.body, req.headers['content-type']))
          : undefined;
    } catch {
      parsed = undefined; // not JSON (or not decodable): the webhook's own parser answers it
    }
    try {
      assertCleanJson(parsed);
      done();
    } catch (e) {
      done(e as Error);
    }
  });
}

/** Fastify's `frameworkErrors` option: a malformed URL or header answered as problem+json, not Fastify's default. */
export function problemFrameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  void sendProblem(
    req,
    reply,
    new AppError(
      'BAD_REQUEST',
      err.code === 'FST_ERR_BAD_URL' ? 'The URL is not valid.' : 'The request is not valid.',
      { cause: err },
    ),
  );
}
