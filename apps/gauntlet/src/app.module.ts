import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import type { BudgetStore } from '@gauntlet/auth';
import { AuthController } from './auth/auth.controller';
import { ChangePlanHandler } from './auth/changing-plan/change-plan';
import { CredentialsGuard } from './auth/credentials.guard';
import { IssueApiKeyHandler } from './auth/issuing-api-key/issue-api-key';
import { JwtStrategy } from './auth/jwt.strategy';
import { RegisterAccountHandler } from './auth/registering-account/register-account';
import { RevokeApiKeyHandler } from './auth/revoking-api-key/revoke-api-key';
import { CiController } from './ci/ci.controller';
import { HealthController } from './health/health.controller';
import { RATE_LIMIT_THROTTLER, RATE_LIMIT_WINDOW_MS, rateLimitKey, rateLimitTracker, SharedThrottlerStorage } from './http/rate-limit';
import { ConfigureAlertWebhookHandler } from './monitor/configuring-alert-webhook/configure-alert-webhook';
import { IngestAgentEventsHandler } from './monitor/ingesting-events/ingest-agent-events';
import { MonitorController } from './monitor/monitor.controller';
import { RemoveAlertWebhookHandler } from './monitor/removing-alert-webhook/remove-alert-webhook';
import { ResultsController } from './results/results.controller';
import { ReportDownloads } from './results/report-downloads';
import { RUNTIME, Runtime } from './runtime';
import { CancelScanHandler } from './scans/cancelling-scan/cancel-scan';
import { RequestScanHandler } from './scans/requesting-scan/request-scan';
import { ScanReader } from './scans/scan-reader';
import { ScansController } from './scans/scans.controller';
import { TriageFindingHandler } from './scans/triaging-finding/triage-finding';
import { CheckTargetHandler } from './targets/checking-target/check-target';
import { TargetChecker } from './targets/checking-target/target-checker';
import { DeleteTargetHandler } from './targets/deleting-target/delete-target';
import { RegisterTargetHandler } from './targets/registering-target/register-target';
import { TargetsController } from './targets/targets.controller';
import { UpdateTargetHandler } from './targets/updating-target/update-target';
import { DeleteWebhookHandler } from './webhooks/deleting-webhook/delete-webhook';
import { RegisterWebhookHandler } from './webhooks/registering-webhook/register-webhook';
import { RotateWebhookSecretHandler } from './webhooks/rotating-secret/rotate-secret';
import { WebhookTester } from './webhooks/webhook-tester';
import { WebhooksController } from './webhooks/webhooks.controller';

@Global()
@Module({})
class RuntimeModule {
  static of(runtime: Runtime): DynamicModule {
    return { module: RuntimeModule, providers: [{ provide: RUNTIME, useValue: runtime }], exports: [RUNTIME] };
  }
}

/** Thin glue: routes, command handlers and guards; every object with state comes from the runtime. */
@Module({})
export class AppModule {
  /** `budgets`: the shared store the limits count in (runtime.infra.budgets()) */
  static forRuntime(runtime: Runtime, budgets: BudgetStore): DynamicModule {
    return {
      module: AppModule,
      imports: [
        RuntimeModule.of(runtime),
        CqrsModule.forRoot(),
        PassportModule,
        JwtModule.register({ secret: runtime.config.jwtSecret }),
        // 120 requests per minute per client IP on the whole api (api-spec.md section 8)
        ThrottlerModule.forRoot({
          throttlers: [{ name: RATE_LIMIT_THROTTLER, ttl: RATE_LIMIT_WINDOW_MS, limit: runtime.config.rateLimitPerMinute }],
          getTracker: (request) => rateLimitTracker(request.ip),
          generateKey: (_context, tracker, throttler) => rateLimitKey(tracker, throttler),
          storage: new SharedThrottlerStorage(budgets),
        }),
      ],
      controllers: [AuthController, TargetsController, ScansController, ResultsController, CiController, WebhooksController, MonitorController, HealthController],
      providers: [
        ...(runtime.config.rateLimitPerMinute > 0 ? [{ provide: APP_GUARD, useClass: ThrottlerGuard }] : []),
        { provide: APP_GUARD, useClass: CredentialsGuard },
        JwtStrategy,
        ScanReader,
        { provide: ReportDownloads, useValue: new ReportDownloads(budgets, runtime.config.reportDownloadsPerHour) },
        RegisterAccountHandler, IssueApiKeyHandler, RevokeApiKeyHandler, ChangePlanHandler,
        RegisterTargetHandler, UpdateTargetHandler, DeleteTargetHandler, CheckTargetHandler, TargetChecker,
        RequestScanHandler, CancelScanHandler, TriageFindingHandler,
        RegisterWebhookHandler, RotateWebhookSecretHandler, DeleteWebhookHandler, WebhookTester,
        ConfigureAlertWebhookHandler, RemoveAlertWebhookHandler, IngestAgentEventsHandler,
      ],
    };
  }
}
