import { Inject, Injectable } from '@nestjs/common';
import type { ScanDoc, VulnerabilityDoc } from '@gauntlet/read-models';
import { ProblemException } from '../http/problem';
import { RUNTIME, Runtime } from '../runtime';

/** Reads scans from the read models, answering 404 for absent scans and other accounts' scans alike. */
@Injectable()
export class ScanReader {
  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  get scans() {
    return this.runtime.infra.documents.collection<ScanDoc>('scans');
  }

  async owned(account_id: string, scan_id: string): Promise<ScanDoc> {
    const doc = await this.scans.get(scan_id);
    if (!doc || doc.account_id !== account_id) throw new ProblemException(404, 'Scan not found.');
    return doc;
  }

  vulnerabilities(scan_id: string): Promise<VulnerabilityDoc[]> {
    return this.runtime.infra.documents
      .collection<VulnerabilityDoc>('vulnerabilities')
      .find({ scan_id }, { sort: { field: 'found_at', direction: 'asc' }, limit: 100_000 });
  }
}
