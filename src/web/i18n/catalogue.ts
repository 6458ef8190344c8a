import { bundle } from './bundle';

/** The catalogue pages' strings (home, browse, plugin, kinds, wishlist, CMS pages). */
export const CATALOGUE = bundle({
  en: {
    'home.tagline': 'Signed plugins, published straight from their repositories.',
    'home.stats.plugins': 'plugins',
    'home.stats.downloads': 'downloads',
    'home.stats.authors': 'authors',
    'home.stats.kinds': 'kinds',
    'home.featured': 'Featured',
    'home.verified': 'Verified',
    'home.kinds': 'Kinds',
    'home.recent': 'Recently updated',
    'home.browseAll': 'Browse all plugins',
    'home.empty': 'No plugins yet.',
  },
  de: {
    'home.tagline': 'Signierte Plugins, direkt aus ihren Repositories veröffentlicht.',
    'home.stats.plugins': 'Plugins',
    'home.stats.downloads': 'Downloads',
    'home.stats.authors': 'Autorinnen und Autoren',
    'home.stats.kinds': 'Arten',
    'home.featured': 'Empfohlen',
    'home.verified': 'Verifiziert',
    'home.kinds': 'Arten',
    'home.recent': 'Kürzlich aktualisiert',
    'home.browseAll': 'Alle Plugins durchsuchen',
    'home.empty': 'Noch keine Plugins.',
  },
});
