export * from './projection';
export * from './account-projections';
export * from './target-projections';
export * from './scan-projections';
import { accountsProjection, apiKeysProjection } from './account-projections';
import { scansProjection, vulnerabilitiesProjection } from './scan-projections';
import { targetsProjection } from './target-projections';

/** the read models the api serves (webhook and monitor projections are added by their modules) */
export const coreProjections = [accountsProjection, apiKeysProjection, targetsProjection, scansProjection, vulnerabilitiesProjection];
