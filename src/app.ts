import Fastify, { type FastifyInstance } from 'fastify';
import type { AppDeps } from './app-deps.js';
import { registerAuthentication } from './auth/authenticate.js';
import { registerConditionalRequests } from './http/conditional.js';
import { httpServerOptions, registerConnectionHandling } from './http/connections.js';
import { registerCors } from './http/cors.js';
import { clientErrorHandler, handleError, registerErrorHandler } from './http/error-handler.js';
import { registerJsonOnly, registerJsonParser, registerJsonSecurityHeaders, registerStrictQueries } from './http/json-rules.js';
import { registerCreatedLocation } from './http/location.js';
import { loggerOptions } from './http/logger.js';
import { registerMethodNotAllowed } from './http/method-not-allowed.js';
import { registerIdempotency } from './idempotency/idempotency.plugin.js';
import { authFailureLimiter, registerRateLimits } from './limits/rate-limit.js';
import { signInLimiter } from './limits/sign-in-limits.js';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.js';
import { attachmentDownloadsRoutes } from './modules/attachments/attachments.downloads.routes.js';
import { attachmentsRoutes } from './modules/attachments/attachments.routes.js';
import { consoleRoutes } from './modules/console/console.routes.js';
import { commentsRoutes } from './modules/comments/comments.routes.js';
import { customersRoutes } from './modules/customers/customers.routes.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { eventsRoutes } from './modules/events/events.routes.js';
import { liveRoutes } from './modules/live/live.routes.js';
import { createMessageIds } from './modules/mail/mail.message-ids.js';
import { mailRoutes } from './modules/mail/mail.routes.js';
import { mailboxesRoutes } from './modules/mail/mailboxes.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { jobsRoutes } from './modules/jobs/jobs.routes.js';
import { sessionsRoutes } from './modules/sessions/sessions.routes.js';
import { sessionContext } from './modules/sessions/sessions.service.js';
import { systemRoutes } from './modules/system/system.routes.js';
import { teamsRoutes } from './modules/teams/teams.routes.js';
import { tagsRoutes } from './modules/tags/tags.routes.js';
import { ticketFieldsRoutes } from './modules/ticket-fields/ticket-fields.routes.js';
import { viewsRoutes } from './modules/views/views.routes.js';
import { macrosRoutes } from './modules/macros/macros.routes.js';
import { automationsRoutes } from './modules/automations/automations.routes.js';
import { slaPoliciesRoutes } from './modules/sla/sla-policies.routes.js';
import { businessHoursRoutes } from './modules/business-hours/business-hours.routes.js';
import { handlePageError, isPortalPageUrl } from './modules/portal/portal.pages.js';
import { portalRoutes } from './modules/portal/portal.routes.js';
import { ticketsRoutes } from './modules/tickets/tickets.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { registerOpenApi } from './openapi/openapi.plugin.js';
import { registerRequestMetrics } from './observability/request-metrics.js';
import { registerRequestIdHeader, requestLogOptions } from './observability/request-id.js';
import { validatorCompiler } from './shared/validation.js';
import { createUrlSigner } from './storage/signed-urls.js';

export const BODY_LIMIT = 1_048_576;

/** Builds the whole service as a Fastify instance. Never listens: see server.ts. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // Timeouts for slow clients and idle connections (src/http/connections.ts).
    ...httpServerOptions(deps.config),
    logger: loggerOptions(deps.config.logLevel),
    // X-Request-Id, the reqId of log lines; no request log lines for health checks at info.
    ...requestLogOptions(deps.config),
    bodyLimit: BODY_LIMIT,
    // Behind a reverse proxy the client address (failed-auth limits, logs) comes from X-Forwarded-For.
    trustProxy: deps.config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    // Errors raised before routing (a bad percent-encoding, a path parameter over 100 characters)
    // bypass setErrorHandler; same shape for them: JSON, or a page at the portal's page addresses.
    frameworkErrors: (error, request, reply) => {
      void (isPortalPageUrl(request.url) ? handlePageError : handleError)(error, request, reply);
    },
    // Errors of Node's HTTP parser (431, malformed requests) come before routing: same shape for them.
    clientErrorHandler,
  });
  app.setValidatorCompiler(validatorCompiler);
  registerRequestIdHeader(app);
  registerRequestMetrics(app, deps.metrics);
  // First: its onRequest hook must run before authentication, so a browser can read a 401 too.
  await registerCors(app, deps.config.corsOrigins);
  registerErrorHandler(app);
  registerConnectionHandling(app);
  // Writes that fail for lack of space, a read-only store or I/O errors make /readyz fail for a while.
  app.addHook('onError', async (_request, _reply, error) => deps.store.health.observe(error));
  registerMethodNotAllowed(app);
  registerJsonOnly(app);
  registerJsonParser(app);
  registerStrictQueries(app);
  registerJsonSecurityHeaders(app);

  // Order matters: the rate-limit plugin adds its hook per route; authentication is app-level and
  // so runs first (401 before 429), the scope check runs in preParsing (429 before 403).
  const sharedRedis = await registerRateLimits(app, deps.config);
  registerAuthentication(app, {
    db: deps.store.db,
    apiKeysVersion: deps.store.apiKeysVersion,
    authFailureExceeded: authFailureLimiter(app, deps.config.rateLimit),
    sessionOf: (token) => sessionContext(deps.store, token),
  });
  // After authentication (keys are per API key) and its scope check (preParsing runs in order).
  registerIdempotency(app, { db: deps.store.db, requestTimeoutMs: deps.config.http.requestTimeoutMs });
  registerConditionalRequests(app);
  registerCreatedLocation(app);

  // Before every route: the OpenAPI document collects routes as they are added.
  await registerOpenApi(app, { publicUrl: deps.config.publicUrl, enabled: deps.config.docsEnabled });
  await app.register(healthRoutes, { store: deps.store, redis: sharedRedis, config: deps.config });
  await app.register(systemRoutes);
  await app.register(ticketsRoutes, deps);
  await app.register(customersRoutes, deps);
  await app.register(usersRoutes, deps);
  await app.register(sessionsRoutes, { ...deps, limiter: signInLimiter(sharedRedis, deps.config.rateLimit) });
  await app.register(teamsRoutes, deps);
  await app.register(tagsRoutes, deps);
  await app.register(ticketFieldsRoutes, deps);
  await app.register(viewsRoutes, deps);
  await app.register(jobsRoutes, deps);

  await app.register(automationsRoutes, deps);
  await app.register(slaPoliciesRoutes, deps);
  await app.register(businessHoursRoutes, deps);
  // Mail about tickets is signed with one key per installation; public agent comments are mailed.
  const mailer = { messageIds: createMessageIds(deps.config), publicUrl: deps.config.publicUrl };
  await app.register(commentsRoutes, { ...deps, mailer });
  await app.register(macrosRoutes, { ...deps, mailer });
  await app.register(dashboardRoutes, deps);
  await app.register(apiKeysRoutes, deps);
  await app.register(eventsRoutes, deps);
  await app.register(liveRoutes, deps);
  await app.register(webhooksRoutes, deps);
  await app.register(mailboxesRoutes, deps);
  // One signer for both ends, so the secret is read (or created) once.
  const signer = createUrlSigner(deps.config);
  await app.register(attachmentsRoutes, { ...deps, signer });
  await app.register(attachmentDownloadsRoutes, { ...deps, signer });
  await app.register(mailRoutes, { ...deps, mailer });
  await app.register(portalRoutes, {
    ...deps,
    signer,
    perMinute: deps.config.rateLimit.portalPerMinute,
    windowMs: deps.config.rateLimit.windowMs,
  });
  // The agent console's pages and assets (not part of the API document).
  await app.register(consoleRoutes, {});
  return app;
}
