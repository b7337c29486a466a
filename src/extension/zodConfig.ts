import { z } from 'zod';

// Imported first by extension.ts, before any schema is built. zod's compiled fast path first
// probes `typeof navigator`, and VS Code's extension host answers that by logging a
// PendingMigrationError ("navigator is now a global in nodejs") against this extension on every
// activation. Without the fast path, loading a 120 MB trajectory takes ~15% longer (~50 ms).
z.config({ jitless: true });
