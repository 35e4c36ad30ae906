// The bundle's entry: the heap settings must apply before the rest of tabmcp loads (loading alone
// would grow the young generation), so everything else is imported after them.
import './small-heap';

await import('./cli');
