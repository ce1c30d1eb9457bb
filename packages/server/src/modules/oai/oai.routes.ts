import type { FastifyInstance, FastifyReply } from 'fastify';
import type { RateLimit } from '../../config.js';
import { AppError } from '../../errors.js';
import type { OaiService } from './oai.service.js';

/**
 * `/oai`, the OAI-PMH base URL: GET with the arguments in the query, or POST with them in an
 * application/x-www-form-urlencoded body (the protocol allows both). The arguments are read from the
 * raw query or body, so that a repeated one is seen (badArgument). Every reply is 200 text/xml, the
 * protocol's errors included; the reply is the same for everyone (`anonymous`: no token looked up).
 * The server's text guard leaves these routes alone (`textGuard: false`): an argument holding a
 * character XML cannot carry is the protocol's badArgument, in a well-formed reply.
 */

const XML = 'text/xml; charset=utf-8';
const FORM = 'application/x-www-form-urlencoded';

const pairs = (query: string): [string, string][] => [...new URLSearchParams(query)];

function send(reply: FastifyReply, xml: string) {
  return reply.type(XML).send(xml);
}

export async function oaiRoutes(app: FastifyInstance, { oai, rateLimit }: { oai: OaiService; rateLimit: RateLimit }) {
  // Per address (RATE_LIMIT_OAI a minute): past it 503 with Retry-After, OAI-PMH's flow control,
  // which harvesters honour by waiting (a 429 is no part of the protocol).
  const limited = {
    max: rateLimit.max,
    timeWindow: rateLimit.timeWindowMs,
    // GET and POST count together.
    groupId: 'oai',
    errorResponseBuilder: (_request: unknown, context: { ttl: number }) => new AppError('BUSY', 'errors.busy', { params: { seconds: Math.ceil(context.ttl / 1000) } }),
  };
  // In this plugin only: the form body as sent, not the parsed object (which merges repeats).
  app.removeContentTypeParser(FORM);
  app.addContentTypeParser(FORM, { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.get('/oai', { config: { access: 'public', anonymous: true, textGuard: false, rateLimit: limited } }, async (request, reply) => {
    const url = request.raw.url ?? '';
    const question = url.indexOf('?');
    return send(reply, await oai.respond(question < 0 ? [] : pairs(url.slice(question + 1))));
  });

  app.post('/oai', { config: { access: 'public', anonymous: true, textGuard: false, rateLimit: limited } }, async (request, reply) => {
    const body = typeof request.body === 'string' ? request.body : '';
    return send(reply, await oai.respond(pairs(body)));
  });
}
