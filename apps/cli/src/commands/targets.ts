import type { Command } from 'commander';
export function registerTargets(_program: Command): void {}
