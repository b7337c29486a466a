// `trajaudit build <items|distractors|release|nuggets> …`: the benchmark builders of seed 000 (docs/builder.md).
import type { CliCommand } from '../options';
import { buildDistractorsCommand } from './buildDistractors';
import { buildItemsCommand } from './buildItems';
import { buildNuggetsCommand } from './buildNuggets';
import { buildReleaseCommand } from './buildRelease';

/** The `trajaudit build …` subcommands, in pipeline order. */
export const BUILD_COMMANDS: readonly CliCommand[] = [buildItemsCommand, buildDistractorsCommand, buildReleaseCommand, buildNuggetsCommand];
