import { isStream, type TargetEvent, type TargetSettings } from '@gauntlet/domain';
import type { RecordedEvent } from '@gauntlet/eventstore';
import { Projection } from './projection';

/** The target as the api shows it, plus the sealed key the scanner opens (never returned). */
export type TargetDoc = TargetSettings & {
  _id: string;
  _rev?: number;
  account_id: string;
  created_at: string;
  updated_at: string;
  deleted: boolean;
  [k: string]: unknown;
};

export const targetsProjection: Projection<TargetDoc> = {
  collection: 'targets',
  indexes: [['account_id', 'deleted', 'created_at']],
  documentId: (e) => (isStream('target', e.streamId) ? e.data.target_id : null),
  apply(doc, event) {
    const e = event as RecordedEvent & TargetEvent;
    switch (e.type) {
      case 'TargetRegistered': {
        const { target_id, registered_at, ...settings } = e.data;
        return { _id: target_id, _rev: e.revision, ...settings, created_at: registered_at, updated_at: registered_at, deleted: false };
      }
      case 'TargetUpdated':
        return doc && { ...doc, ...e.data.changes, _rev: e.revision, updated_at: e.data.updated_at };
      case 'TargetDeleted':
        return doc && { ...doc, _rev: e.revision, deleted: true, updated_at: e.data.deleted_at };
      default:
        return doc;
    }
  },
};
