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
