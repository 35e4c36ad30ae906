/**
 * Site chrome: what a site repeats around every page (navigation, banners, sidebars, footers,
 * share and newsletter widgets). A reading task needs none of it, so `get_page_content {main}`
 * leaves it out and no list or click tool is derived from sidebars, footers and share widgets
 * (docs/dom-tools.md, "get_page_content").
 */

/** Landmarks that are chrome wherever they are. */
const CHROME_LANDMARKS =
  'nav, aside, [role=navigation], [role=banner], [role=contentinfo], [role=complementary], [role=search]';
/** Widgets named by their class or id: share bars, newsletter boxes, related and promoted posts, ads. */
const CHROME_WIDGET =
  /(^|[\s_-])(share|sharing|social|newsletter|subscribe|related|recommended|promo|advert|ads?|sponsor|outbrain|taboola|sidebar|breadcrumbs?|comments?)([\s_-]|$)/i;
/** Sections of the page whose <header>/<footer> is their own, not the site's. */
const SECTIONING = 'article, aside, main, nav, section, [role=main], [role=article]';

/** Whether an element is site chrome itself (not whether it is inside some). */
export function isChrome(element: Element): boolean {
  if (element.matches(CHROME_LANDMARKS)) return true;
  // A <header> or <footer> is the site's only when no section owns it, and never when a component's
  // shadow root holds it (a web-component app's own footer, such as a todo list's "Clear completed").
  if (
    (element.tagName === 'HEADER' || element.tagName === 'FOOTER') &&
    element.getRootNode() === element.ownerDocument &&
    !element.parentElement?.closest(SECTIONING)
  )
    return true;
  const named = `${element.id} ${typeof element.className === 'string' ? element.className : ''}`;
  return named.trim() !== '' && CHROME_WIDGET.test(named);
}

/**
 * Whether an element sits in a sidebar, footer or share widget, where no tool is derived from
 * (navigation and the site's header stay: open_link, search and sign-in live there). Remembered
 * per element for one derivation, so asking for every element of the page stays linear.
 */
export function toolChrome(): (element: Element) => boolean {
  const known = new WeakMap<Element, boolean>();
  const inChrome = (element: Element | null): boolean => {
    if (!element) return false;
    const cached = known.get(element);
    if (cached !== undefined) return cached;
    const kept = element.matches('nav, header, [role=navigation], [role=search], [role=banner]') || !isChrome(element);
    const verdict = !kept || inChrome(element.parentElement);
    known.set(element, verdict);
    return verdict;
  };
  return inChrome;
}

/** A search box or a sign-in form: what a person uses even in a sidebar or footer, so its tool stays. */
const KEPT_IN_CHROME = '[role=search], input[type=search], [role=searchbox], input[type=password]';

/**
 * Whether a form, text field or choice gives no tool because it sits in site chrome (a newsletter
 * or subscribe box, a footer's language select): such a tool only clutters the list an agent reads
 * on every change, and the control stays reachable through act with its handle. The control's own
 * class does not count, only what holds it (a checkbox with id "newsletter" in a settings form is
 * the user's choice); a search box and a sign-in form stay wherever they are.
 */
export function chromeControl(inChrome: (element: Element) => boolean): (element: Element) => boolean {
  return (element) =>
    element.parentElement !== null &&
    inChrome(element.parentElement) &&
    !element.matches(KEPT_IN_CHROME) &&
    element.querySelector(KEPT_IN_CHROME) === null &&
    element.closest('[role=search]') === null;
}

/**
 * The page's main content: its one `<main>` (or `role=main`), else its one `<article>`, else the
 * largest article; undefined when the page marks none (then chrome is skipped as it is met).
 */
export function mainRoot(doc: Document): Element | undefined {
  const mains = doc.querySelectorAll('main, [role=main]');
  if (mains.length === 1) return mains[0] ?? undefined;
  const articles = [...doc.querySelectorAll('article, [role=article]')].filter(
    (article) => !article.parentElement?.closest('article, [role=article]'),
  );
  let largest: Element | undefined;
  let size = 0;
  for (const article of articles) {
    const length = article.textContent?.length ?? 0;
    if (length > size) [largest, size] = [article, length];
  }
  return largest;
}
