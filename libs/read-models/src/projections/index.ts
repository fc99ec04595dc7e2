export * from './projection';
export * from './account-projections';
export * from './target-projections';
export * from './scan-projections';
export * from './webhook-projections';
export * from './triage-projections';
export * from './schedule-projections';
import { accountsProjection, apiKeysProjection } from './account-projections';
import { scansProjection, vulnerabilitiesProjection } from './scan-projections';
import { targetsProjection } from './target-projections';
import { schedulesProjection } from './schedule-projections';
import { scanCoverageProjection, triageProjection } from './triage-projections';
import { agentAlertsProjection, webhooksProjection } from './webhook-projections';

/** every read model the api and the workers read */
export const coreProjections = [accountsProjection, apiKeysProjection, targetsProjection, scansProjection, vulnerabilitiesProjection, webhooksProjection, agentAlertsProjection, triageProjection, scanCoverageProjection, schedulesProjection];
