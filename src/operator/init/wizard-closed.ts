/** What every wizard step answers (410) once an admin exists. */
export const WIZARD_CLOSED = 'the registry is already set up; the install wizard is closed';
