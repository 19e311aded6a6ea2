import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AppConfig } from './config';

/**
 * Writes what loadConfig generated on the embedded default (the operator token, the
 * webhook sealing key), readable by the owner only, so the next start reads them back.
 * Called at start, before the config is used.
 */
export function keepGeneratedFiles(config: AppConfig): void {
  for (const { file, text } of config.generatedFiles ?? []) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text, { mode: 0o600 });
  }
}
