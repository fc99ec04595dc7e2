import type { Command } from 'commander';
export function registerScans(_program: Command): void {}
