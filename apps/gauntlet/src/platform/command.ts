/**
 * What every command class extends: a command is one object of named fields
 * (`new CancelScan({ account_id, scan_id, context })`), never positional arguments whose order a
 * caller must remember and a new field shifts. Each command is still a class of its own, because
 * that is how Nest's command bus finds its handler.
 */
export function Command<Props extends object>() {
  return class {
    constructor(props: Props) {
      Object.assign(this, props);
    }
  } as new (props: Props) => Readonly<Props>;
}
