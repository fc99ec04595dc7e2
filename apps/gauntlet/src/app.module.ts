import { DynamicModule, Module, Provider } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { ThrottlerModule } from '@nestjs/throttler';
import { BudgetStore, SecretBox, VerifiedTokens } from '@gauntlet/auth';
import { DeliveryWorker } from '@gauntlet/webhooks';
import { AuthController } from './auth/auth.controller';
import { ChangePlanHandler } from './auth/changing-plan/change-plan';
import { AccountReader } from './auth/account-reader';
import { CredentialsGuard } from './auth/credentials.guard';
import { VerifiedSessions } from './auth/verified-sessions';
import { IssueApiKeyHandler } from './auth/issuing-api-key/issue-api-key';
import { JwtStrategy } from './auth/jwt.strategy';
import { RegisterAccountHandler } from './auth/registering-account/register-account';
import { RevokeApiKeyHandler } from './auth/revoking-api-key/revoke-api-key';
import { CiController } from './ci/ci.controller';
import { HealthController } from './health/health.controller';
import { Readiness } from './health/readiness';
import { RATE_LIMIT_THROTTLER, RATE_LIMIT_WINDOW_MS, RateLimitGuard, SharedThrottlerStorage } from './http/rate-limit';
import { ConfigureAlertWebhookHandler } from './monitor/configuring-alert-webhook/configure-alert-webhook';
import { IngestAgentEventsHandler } from './monitor/ingesting-events/ingest-agent-events';
import { MonitorController } from './monitor/monitor.controller';
import { RemoveAlertWebhookHandler } from './monitor/removing-alert-webhook/remove-alert-webhook';
import { ResultsController } from './results/results.controller';
import { ReportDownloads } from './results/report-downloads';
import { CheckGate } from './targets/checking-target/check-gate';
import { Clock } from './platform/clock';
import { WritePath } from './platform/write-path';
import { Metrics } from './platform/metrics';
import { CONFIG, LOGGER } from './platform/tokens';
import { Runtime } from './runtime';
import { CancelScanHandler } from './scans/cancelling-scan/cancel-scan';
import { RequestScanHandler } from './scans/requesting-scan/request-scan';
import { ScanHistory } from './scans/scan-history';
import { ScanReader } from './scans/scan-reader';
import { ScanPlanner } from './scans/planning-scan/plan-scan';
import { ScansController } from './scans/scans.controller';
import { TriageFindingHandler } from './scans/triaging-finding/triage-finding';
import { CheckTargetHandler } from './targets/checking-target/check-target';
import { TargetChecker } from './targets/checking-target/target-checker';
import { DeleteTargetHandler } from './targets/deleting-target/delete-target';
import { OutboundPolicy } from './targets/outbound-url';
import { RegisterTargetHandler } from './targets/registering-target/register-target';
import { TargetReader } from './targets/target-reader';
import { TargetsController } from './targets/targets.controller';
import { UpdateTargetHandler } from './targets/updating-target/update-target';
import { DeleteWebhookHandler } from './webhooks/deleting-webhook/delete-webhook';
import { RegisterWebhookHandler } from './webhooks/registering-webhook/register-webhook';
import { RotateWebhookSecretHandler } from './webhooks/rotating-secret/rotate-secret';
import { deliveryWorker } from './webhooks/webhook-engine';
import { WebhookReader } from './webhooks/webhook-reader';
import { WebhookTester } from './webhooks/webhook-tester';
import { WebhooksController } from './webhooks/webhooks.controller';
import { ChangeScheduleHandler } from './schedules/changing-schedule/change-schedule';
import { CreateScheduleHandler } from './schedules/creating-schedule/create-schedule';
import { DeleteScheduleHandler } from './schedules/deleting-schedule/delete-schedule';
import { ScheduleReader } from './schedules/schedule-reader';
import { FiringScans } from './schedules/firing-scans';
import { CiDeployController } from './ci/ci-deploy.controller';
import { ReportDeployHandler } from './ci/reporting-deploy/report-deploy';
import { SchedulesController } from './schedules/schedules.controller';
import { FleetController } from './fleet/fleet.controller';
import { FleetReader } from './fleet/fleet-reader';

/**
 * The ports and adapters the api's handlers, controllers and guards receive, each by its own
 * class (or token, for the two plain values), built here from the composition root.
 */
function portsOf(runtime: Runtime, budgets: BudgetStore): Provider[] {
  const { config, log, infra } = runtime;
  const history = new ScanHistory(infra.events);
  const accounts = new AccountReader(infra.documents);
  const targets = new TargetReader(infra.documents);
  const scans = new ScanReader(infra.documents, history);
  return [
    { provide: CONFIG, useValue: config },
    { provide: LOGGER, useValue: log },
    { provide: Clock, useValue: runtime.clock },
    { provide: WritePath, useValue: runtime.writePath },
    { provide: SecretBox, useValue: runtime.secrets },
    { provide: VerifiedTokens, useValue: runtime.verifiedTokens },
    { provide: Metrics, useValue: runtime.metrics },
    { provide: OutboundPolicy, useValue: new OutboundPolicy(config.outboundAllowPrivate) },
    { provide: AccountReader, useValue: accounts },
    { provide: VerifiedSessions, useValue: new VerifiedSessions(runtime.verifiedTokens, accounts) },
    { provide: TargetReader, useValue: targets },
    { provide: ScanHistory, useValue: history },
    { provide: ScanReader, useValue: scans },
    { provide: ScanPlanner, useValue: new ScanPlanner(targets, infra.documents, config) },
    { provide: FleetReader, useValue: new FleetReader(infra.documents, targets, scans, runtime.clock) },
    { provide: WebhookReader, useValue: new WebhookReader(infra.documents) },
    { provide: ScheduleReader, useValue: new ScheduleReader(infra.documents) },
    { provide: FiringScans, useValue: new FiringScans({ writePath: runtime.writePath, docs: infra.documents, config, clock: runtime.clock }) },
    { provide: DeliveryWorker, useValue: deliveryWorker(runtime) },
    { provide: Readiness, useValue: new Readiness(infra, runtime.projector, runtime.metrics) },
    { provide: ReportDownloads, useValue: new ReportDownloads(budgets, config.reportDownloadsPerHour) },
    { provide: CheckGate, useValue: new CheckGate(budgets, { inFlight: config.targetChecksInFlight, perHour: config.targetChecksPerHour }) },
  ];
}

/** Thin glue: routes, command handlers and guards; every object with state is one of the ports above. */
@Module({})
export class AppModule {
  /** `budgets`: the shared store the limits count in (runtime.infra.budgets()) */
  static forRuntime(runtime: Runtime, budgets: BudgetStore): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CqrsModule.forRoot(),
        PassportModule,
        JwtModule.register({ secret: runtime.config.jwtSecret }),
        // RATE_LIMIT_PER_MINUTE (120 by default) requests per minute per client IP on the whole api
        ThrottlerModule.forRoot({
          throttlers: [{ name: RATE_LIMIT_THROTTLER, ttl: RATE_LIMIT_WINDOW_MS, limit: runtime.config.rateLimitPerMinute }],
          storage: new SharedThrottlerStorage(budgets),
        }),
      ],
      controllers: [AuthController, TargetsController, ScansController, ResultsController, CiController, CiDeployController, WebhooksController, MonitorController, SchedulesController, FleetController, HealthController],
      providers: [
        ...(runtime.config.rateLimitPerMinute > 0 ? [{ provide: APP_GUARD, useClass: RateLimitGuard }] : []),
        { provide: APP_GUARD, useClass: CredentialsGuard },
        ...portsOf(runtime, budgets),
        JwtStrategy,
        RegisterAccountHandler, IssueApiKeyHandler, RevokeApiKeyHandler, ChangePlanHandler,
        RegisterTargetHandler, UpdateTargetHandler, DeleteTargetHandler, CheckTargetHandler, TargetChecker,
        RequestScanHandler, CancelScanHandler, TriageFindingHandler,
        RegisterWebhookHandler, RotateWebhookSecretHandler, DeleteWebhookHandler, WebhookTester,
        ConfigureAlertWebhookHandler, RemoveAlertWebhookHandler, IngestAgentEventsHandler,
        CreateScheduleHandler, ChangeScheduleHandler, DeleteScheduleHandler, ReportDeployHandler,
      ],
    };
  }
}
