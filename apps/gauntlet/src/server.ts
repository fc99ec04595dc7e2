import { CommandBus } from '@nestjs/cqrs';
import { NestFactory, Reflector } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { getStorageToken, ThrottlerStorage } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { AppModule } from './app.module';
import { callbackHostHook, callbackRoute } from './callbacks/callback-route';
import { callbackListener, ScanStreamHits } from './callbacks/scan-stream-hits';
import { startCallbackDns } from '@gauntlet/scanner';
import { RegisterAccount } from './auth/registering-account/register-account';
import { createRequestLogger, NestPinoLogger } from './platform/logger';
import { Runtime } from './runtime';
import { AccountReader } from './auth/account-reader';
import { Authenticator, routeMarkers } from './auth/authenticator';
import { VerifiedSessions } from './auth/verified-sessions';
import { ScanHistory } from './scans/scan-history';
import { ScanReader } from './scans/scan-reader';
import { ScansController } from './scans/scans.controller';
import { STATUS_ROUTE, statusFastLane } from './scans/status-fast-lane';
import { serveDashboard } from './http/dashboard';
import { registerJsonBody } from './http/json-body';
import { answerMethodNotAllowed } from './http/method-not-allowed';
import { completeOpenApi, routeFacts } from './http/openapi';
import { requestSpender } from './http/rate-limit';
import { answerClientError, ProblemDetailsFilter, sendProblem } from './http/problem';
import { validationPipe } from './http/validation';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export function openApiDocument(app: NestFastifyApplication, baseUrl: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Gauntlet API')
    .setDescription('Scans AI targets (chatbots and model APIs) for vulnerabilities, scores them, maps them to OWASP LLM Top 10, NIST AI RMF and SOC 2 CC7, renders reports, gates CI and sends signed webhooks. Every error is application/problem+json (RFC 9457).')
    .setVersion('1')
    .addServer(baseUrl)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, 'api_key')
    .build();
  const facts = routeFacts(app);
  return completeOpenApi(SwaggerModule.createDocument(app, config), (operationId) => facts.operations.get(operationId), facts.dtos);
}

export async function createHttpApp(runtime: Runtime): Promise<NestFastifyApplication> {
  const { config, log, metrics } = runtime;
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // behind a proxy, the client IP (rate limits) comes from X-Forwarded-For only when the operator says the proxy is trusted
    trustProxy: config.trustProxy,
    genReqId: () => randomUUID(),
    logger: false,
    // what fastify answers itself, before any route (a bad or over-long address, headers too large), is problem+json too
    frameworkErrors: (err: Error, request: FastifyRequest, reply: FastifyReply) => {
      reply.header('X-Request-Id', request.id).header('X-Content-Type-Options', 'nosniff');
      sendProblem(reply, request, err, log);
    },
    clientErrorHandler: answerClientError,
  });
  const budgets = await runtime.infra.budgets();
  // windows that have ended are forgotten by the store once a minute (the process's own leases go with them)
  const sweep = setInterval(() => budgets.sweep(Date.now()).catch((err) => log.warn({ err }, 'budget sweep failed')), 60_000).unref();
  runtime.onClose(async () => clearInterval(sweep));
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRuntime(runtime, budgets), adapter, {
    logger: new NestPinoLogger(log),
    bufferLogs: false,
    bodyParser: false,
  });
  app.useGlobalFilters(new ProblemDetailsFilter(log));
  app.useGlobalPipes(validationPipe());
  const fastify = app.getHttpAdapter().getInstance();
  registerJsonBody(fastify, BODY_LIMIT_BYTES);
  answerMethodNotAllowed(fastify, log);
  await serveDashboard(fastify);

  // callback hooks, not async ones: they run on every request, and a promise each is measurable
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    reply.header('X-Content-Type-Options', 'nosniff');
    done();
  });
  const requests = createRequestLogger(config.logLevel);
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions?.url ?? 'unmatched';
    metrics.httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    // probes and scrapes are not logged; a successful status poll (CI gates poll every few seconds)
    // only at debug, or polls would be most of the log; everything else, one line at info
    if (route !== '/healthz' && route !== '/metrics') {
      const level = route === STATUS_ROUTE && reply.statusCode === 200 ? 'debug' : 'info';
      if (requests.isLevelEnabled(level)) {
        requests[level]({ reqId: request.id, method: request.method, route, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
      }
    }
    done();
  });

  // the polled status route's fast lane, hooked onto the route when Nest registers it (app.init below)
  await fastify.register(statusFastLane, {
    authenticator: new Authenticator(app.get<VerifiedSessions>(VerifiedSessions), app.get<AccountReader>(AccountReader)),
    route: routeMarkers(app.get(Reflector), ScansController.prototype.status, ScansController),
    scans: app.get<ScanReader>(ScanReader),
    ...(config.rateLimitPerMinute > 0 && { spend: requestSpender(app.get<ThrottlerStorage>(getStorageToken()), config.rateLimitPerMinute) }),
    answered: metrics.statusFastLane,
  });

  // the callback listener, outside /api: its own limits, no credentials; `/oob/<token>`, names under
  // CALLBACK_DOMAIN asked for over HTTP, and (CALLBACK_DNS_PORT) looked up over DNS, all one listener
  const listener = callbackListener(runtime, new ScanStreamHits(runtime.writePath, new ScanHistory(runtime.infra.events)));
  await fastify.register(callbackRoute, { listener });
  if (config.callbackDomain) fastify.addHook('onRequest', callbackHostHook(listener));
  if (config.callbackDnsPort !== null) {
    const dns = await startCallbackDns(listener, { host: config.callbackDnsHost, port: config.callbackDnsPort, answers: config.callbackDnsAnswers });
    runtime.onClose(() => dns.close());
    log.info({ host: dns.host, port: dns.port, domain: config.callbackDomain }, `callback DNS listener answering for *.${config.callbackDomain} on udp ${dns.host}:${dns.port}`);
  }

  const document = openApiDocument(app, config.publicBaseUrl);
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/openapi.json', yamlDocumentUrl: 'api/openapi.yaml' });

  await app.init();
  await bootstrapAdmin(app, runtime);
  return app;
}

/** ADMIN_EMAIL / ADMIN_PASSWORD: an administrator is created at start when absent. */
async function bootstrapAdmin(app: NestFastifyApplication, runtime: Runtime): Promise<void> {
  const { adminEmail, adminPassword } = runtime.config;
  if (!adminEmail || !adminPassword) return;
  try {
    await app.get(CommandBus).execute(new RegisterAccount({ email: adminEmail, password: adminPassword, plan: 'enterprise', role: 'admin', context: { actor: 'system', correlationId: randomUUID() } }));
    runtime.log.info({ email: adminEmail }, 'administrator account created');
  } catch (err) {
    if ((err as { code?: string }).code !== 'conflict') throw err;
  }
}
