import { buildComponentFixtures } from '../../examples/components/build';
import { buildGauntlet } from '../../examples/gauntlet/build';
import { buildWidgetFixtures } from '../../examples/widgets/build';
import { buildReactWidgets } from '../../examples/widgets-react/build';

/**
 * Builds every page the catalog's tasks open (each library's bundle): the e2e suite and
 * bench/widgets.ts call this one, so a library added to the catalog adds its build here.
 */
export async function buildCatalogPages(): Promise<void> {
  await Promise.all([buildGauntlet(), buildComponentFixtures(), buildReactWidgets(), buildWidgetFixtures()]);
}
