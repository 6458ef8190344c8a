import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';

/**
 * A class-validator decorator from a predicate and a message, for the rules the built-in
 * decorators do not express (scope grammar, UTF-8 byte limits, WHATWG URLs, ...).
 */
export function Satisfies(
  name: string,
  predicate: (value: unknown) => boolean,
  message: (propertyName: string, args: ValidationArguments) => string,
  options?: ValidationOptions,
) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name,
      target: object.constructor,
      propertyName,
      options,
      validator: { validate: (value: unknown) => predicate(value), defaultMessage: (args) => message(propertyName, args!) },
    });
}

/** What is wrong with one array item, or null when it is fine. */
export type ItemCheck = (item: unknown) => string | null;

const ITEM_CHECKS = new Map<string, ItemCheck>();

/** The item check behind a `SatisfiesEach` rule, so a failure can be reported item by item. */
export function itemCheckFor(name: string): ItemCheck | undefined {
  return ITEM_CHECKS.get(name);
}

/**
 * A rule on every item of an array. Its failure is reported at each bad item's own pointer
 * (`/scopes/1: unknown action "write"`) by the validation error flattener; a value that is not
 * an array is left to `@IsArray()`.
 */
export function SatisfiesEach(name: string, check: ItemCheck) {
  ITEM_CHECKS.set(name, check);
  return Satisfies(
    name,
    (value) => !Array.isArray(value) || value.every((item) => check(item) === null),
    (propertyName) => `${propertyName}: has invalid items`,
  );
}
