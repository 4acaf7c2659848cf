/**
 * `/restapi/1.0/object/<model>[/<id>[/<method>]]`: list, read, create, update, delete, and business
 * methods. Order of checks: credential (401), rate limit (429), model exists (404), scope (403).
 */
import { allows, isBusinessMethod, isModelName, type Operation, requiredScope } from '@platform/credentials';
import { parseOrThrow } from '@platform/http-kit';
import { AppError } from '@platform/kernel';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { Principal, RestAuth } from './restapi.auth.js';
import {
  listQuerySchema,
  parseDomain,
  parseFields,
  parseId,
  parseMethodCall,
  parseValues,
  readQuerySchema,
} from './restapi.schemas.js';
import type { RestApiService } from './restapi.service.js';

export interface RestApiRouteDeps {
  auth: RestAuth;
  rest: RestApiService;
}

type Params = { model: string; id?: string; method?: string };

export function registerRestApiRoutes(app: FastifyInstance, d: RestApiRouteDeps): void {
  async function guard(
    req: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
    op: Operation | { method: string },
  ): Promise<Principal> {
    const principal = await d.auth.authenticate(req, reply);
    const { model } = req.params;
    if (!isModelName(model)) throw new AppError('MODEL_NOT_FOUND', `"${model}" is not a model name`);
    await d.rest.ensureModel(model);
    if (!allows(principal.scopes, model, op)) {
      const need = requiredScope(model, op);
      throw new AppError('API_FORBIDDEN', `This credential's scope does not include ${need}`, {
        details: { required_scope: need },
      });
    }
    return principal;
  }

  /** The record after a change, when the credential may read it; otherwise just its id. */
  async function reread(p: Principal, model: string, id: number) {
    return allows(p.scopes, model, 'read') ? d.rest.get(p.user, model, id) : { id };
  }

  app.get<{ Params: Params }>('/object/:model', async (req, reply) => {
    const p = await guard(req, reply, 'read');
    const q = parseOrThrow(listQuerySchema, req.query);
    return d.rest.list(p.user, req.params.model, {
      domain: parseDomain(q.domain),
      fields: parseFields(q.fields),
      limit: q.limit,
      offset: q.offset,
      order: q.order,
    });
  });

  app.get<{ Params: Params }>('/object/:model/:id', async (req, reply) => {
    const p = await guard(req, reply, 'read');
    const q = parseOrThrow(readQuerySchema, req.query);
    return d.rest.get(p.user, req.params.model, parseId(req.params.id!), parseFields(q.fields));
  });

  app.post<{ Params: Params }>('/object/:model', async (req, reply) => {
    const p = await guard(req, reply, 'write');
    const id = await d.rest.create(p.user, req.params.model, parseValues(req.body));
    reply.code(201).header('location', `/restapi/1.0/object/${req.params.model}/${id}`);
    return reread(p, req.params.model, id);
  });

  app.put<{ Params: Params }>('/object/:model/:id', async (req, reply) => {
    const p = await guard(req, reply, 'write');
    const id = parseId(req.params.id!);
    await d.rest.update(p.user, req.params.model, id, parseValues(req.body));
    return reread(p, req.params.model, id);
  });

  app.delete<{ Params: Params }>('/object/:model/:id', async (req, reply) => {
    const p = await guard(req, reply, 'write');
    await d.rest.remove(p.user, req.params.model, parseId(req.params.id!));
    return reply.code(204).send();
  });

  app.post<{ Params: Params }>('/object/:model/:id/:method', async (req, reply) => {
    const method = req.params.method!;
    if (!isBusinessMethod(method)) {
      await d.auth.authenticate(req, reply);
      throw new AppError(
        'METHOD_NOT_FOUND',
        `Only public business methods (action_*, button_*) can be called, not ${method}`,
      );
    }
    const p = await guard(req, reply, { method });
    const call = parseMethodCall(req.body);
    const result = await d.rest.callMethod(
      p.user,
      req.params.model,
      parseId(req.params.id!),
      method,
      call.args,
      call.kwargs,
    );
    return { result: result ?? null };
  });
}
