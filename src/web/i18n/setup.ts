import { bundle } from './bundle';

/** The install wizard's strings (`account.setup.*`) and the forge fields it shares with the admin console (`account.forge.*`). */
export const SETUP = bundle({
  en: {
    'account.setup.title': 'Set up the registry',
    'account.setup.intro':
      'This registry has no administrator yet. These steps name the site, make the first administrator, give them a passkey or a password, and, if you like, let people sign in with a forge.',
    'account.setup.introSignedIn':
      'The first administrator exists and this browser is signed in as them. The steps left give them a way to sign in again and, if you like, add a forge.',
    'account.setup.signin.title': 'How the administrator signs in',
    'account.setup.signin.intro':
      'This session ends one day. Add a passkey (or set a password, where this registry allows them) so the administrator can sign in again, with or without a forge.',
    'account.setup.signin.link': 'Neither works here? On the server, `registry users sign-in-link <login>` prints a one-time sign-in link.',
    'account.setup.signin.needed': 'Add a passkey or set a password first.',
    'account.setup.forge.skip': 'Finish without a forge',
    'account.setup.forge.finish': 'Finish',
    'account.setup.finished.title': 'The registry is set up',
    'account.setup.finished.text': 'You are signed in as its administrator. Forges, kinds, pages and settings are in the admin console.',
    'account.setup.step': 'Step {n} of {total}',
    'account.setup.token.title': 'Bootstrap token',
    'account.setup.token.hint':
      'The server printed it in its log at start ("install wizard open: use bootstrap token …"), or it is the INIT_TOKEN you configured.',
    'account.setup.token.label': 'Bootstrap token',
    'account.setup.continue': 'Continue',
    'account.setup.site.title': 'Site settings',
    'account.setup.site.name': 'Site name',
    'account.setup.site.baseUrl':
      'The public address (BASE_URL) and the signing key come from the environment and need no step here: the first signing key is made at start and rotates in the admin console.',
    'account.setup.admin.title': 'First administrator',
    'account.setup.admin.login': 'Login',
    'account.setup.admin.email': 'Email (optional)',
    'account.setup.admin.create': 'Create the administrator',
    'account.setup.forge.title': 'Sign-in with a forge (optional)',
    'account.setup.forge.intro':
      'People sign in with their account on a code forge. Register an OAuth application at the forge with the callback URL shown below, then enter its client id and secret here: sign-in with it works at once, without a restart. You can add more later in the admin console (Settings).',
    'account.setup.forge.configured': 'Forges people can sign in with:',
    'account.setup.forge.callback': 'Callback URL',
    'account.setup.forge.none': 'No forge has OAuth credentials yet, so nobody can sign in with one.',
    'account.setup.forge.add': 'Add a forge',
    'account.setup.forge.added': 'Added: people can sign in with {name} now.',
    'account.setup.forge.config': 'Or keep it in the configuration instead',
    'account.setup.forge.how':
      'A forge can also be configured in the FORGES environment variable, which the server reads at start (restart it after a change):',
    'account.forge.type': 'Forge type',
    'account.forge.name': 'Name',
    'account.forge.name.hint': 'Lowercase letters, digits and -; it becomes part of the callback URL.',
    'account.forge.webUrl': 'Web address',
    'account.forge.webUrl.hint': 'The address people open, e.g. https://github.com or https://gitlab.example.com.',
    'account.forge.apiUrl': 'API address (optional)',
    'account.forge.apiUrl.hint':
      'Leave empty for the usual one: api.github.com for github.com, /api/v3 for GitHub Enterprise, /api/v4 for GitLab, /api/v1 for Gitea and Forgejo.',
    'account.forge.clientId': 'OAuth client id',
    'account.forge.clientSecret': 'OAuth client secret',
    'account.forge.clientSecret.hint': 'Stored encrypted; it is never shown again.',
    'account.setup.done': 'Done: you are signed in as {login}.',
    'account.setup.toAdmin': 'Open the admin console',
    'account.setup.toCatalogue': 'Open the catalogue',
  },
  de: {
    'account.setup.title': 'Registry einrichten',
    'account.setup.intro':
      'Diese Registry hat noch keinen Administrator. Diese Schritte benennen die Seite, legen den ersten Administrator an, geben ihm einen Passkey oder ein Passwort und richten, wenn Sie möchten, die Anmeldung über eine Plattform ein.',
    'account.setup.introSignedIn':
      'Der erste Administrator ist angelegt, und dieser Browser ist als er angemeldet. Die übrigen Schritte geben ihm eine Möglichkeit, sich wieder anzumelden, und fügen, wenn Sie möchten, eine Plattform hinzu.',
    'account.setup.signin.title': 'Wie sich der Administrator anmeldet',
    'account.setup.signin.intro':
      'Diese Sitzung endet irgendwann. Fügen Sie einen Passkey hinzu (oder setzen Sie ein Passwort, wo diese Registry sie erlaubt), damit sich der Administrator wieder anmelden kann, mit oder ohne Plattform.',
    'account.setup.signin.link':
      'Geht beides hier nicht? Auf dem Server gibt `registry users sign-in-link <login>` einen einmaligen Anmeldelink aus.',
    'account.setup.signin.needed': 'Fügen Sie zuerst einen Passkey hinzu oder setzen Sie ein Passwort.',
    'account.setup.forge.skip': 'Ohne Plattform abschließen',
    'account.setup.forge.finish': 'Abschließen',
    'account.setup.finished.title': 'Die Registry ist eingerichtet',
    'account.setup.finished.text':
      'Sie sind als ihr Administrator angemeldet. Plattformen, Arten, Seiten und Einstellungen finden Sie in der Verwaltung.',
    'account.setup.step': 'Schritt {n} von {total}',
    'account.setup.token.title': 'Bootstrap-Token',
    'account.setup.token.hint':
      'Der Server hat es beim Start ins Log geschrieben („install wizard open: use bootstrap token …“), oder es ist das konfigurierte INIT_TOKEN.',
    'account.setup.token.label': 'Bootstrap-Token',
    'account.setup.continue': 'Weiter',
    'account.setup.site.title': 'Seiteneinstellungen',
    'account.setup.site.name': 'Name der Seite',
    'account.setup.site.baseUrl':
      'Die öffentliche Adresse (BASE_URL) und der Signaturschlüssel kommen aus der Umgebung und brauchen hier keinen Schritt: Der erste Schlüssel entsteht beim Start und wird in der Verwaltung rotiert.',
    'account.setup.admin.title': 'Erster Administrator',
    'account.setup.admin.login': 'Login',
    'account.setup.admin.email': 'E-Mail (optional)',
    'account.setup.admin.create': 'Administrator anlegen',
    'account.setup.forge.title': 'Anmeldung über eine Plattform (optional)',
    'account.setup.forge.intro':
      'Angemeldet wird mit dem Konto auf einer Code-Plattform. Registrieren Sie dort eine OAuth-Anwendung mit der unten gezeigten Callback-URL und tragen Sie hier Client-ID und Secret ein: Die Anmeldung damit funktioniert sofort, ohne Neustart. Weitere Plattformen fügen Sie später in der Verwaltung (Einstellungen) hinzu.',
    'account.setup.forge.configured': 'Plattformen, mit denen man sich anmelden kann:',
    'account.setup.forge.callback': 'Callback-URL',
    'account.setup.forge.none': 'Noch hat keine Plattform OAuth-Zugangsdaten, also kann sich niemand darüber anmelden.',
    'account.setup.forge.add': 'Plattform hinzufügen',
    'account.setup.forge.added': 'Hinzugefügt: Anmeldung mit {name} ist jetzt möglich.',
    'account.setup.forge.config': 'Oder stattdessen in der Konfiguration',
    'account.setup.forge.how':
      'Eine Plattform lässt sich auch in der Umgebungsvariable FORGES eintragen, die der Server beim Start liest (nach einer Änderung neu starten):',
    'account.forge.type': 'Plattformtyp',
    'account.forge.name': 'Name',
    'account.forge.name.hint': 'Kleinbuchstaben, Ziffern und -; der Name wird Teil der Callback-URL.',
    'account.forge.webUrl': 'Web-Adresse',
    'account.forge.webUrl.hint': 'Die Adresse, die man im Browser öffnet, z. B. https://github.com oder https://gitlab.example.com.',
    'account.forge.apiUrl': 'API-Adresse (optional)',
    'account.forge.apiUrl.hint':
      'Leer lassen für die übliche: api.github.com für github.com, /api/v3 für GitHub Enterprise, /api/v4 für GitLab, /api/v1 für Gitea und Forgejo.',
    'account.forge.clientId': 'OAuth-Client-ID',
    'account.forge.clientSecret': 'OAuth-Client-Secret',
    'account.forge.clientSecret.hint': 'Wird verschlüsselt gespeichert und nie wieder angezeigt.',
    'account.setup.done': 'Fertig: Sie sind als {login} angemeldet.',
    'account.setup.toAdmin': 'Verwaltung öffnen',
    'account.setup.toCatalogue': 'Katalog öffnen',
  },
});
