/** A converter that is not installed or failed to start: answered 503 with this Russian text. */
export class ConverterUnavailable extends Error {
  constructor(message: string) {
    super(message);
  }
}

/** The document could not be converted (a broken file): answered 422. */
export class ConversionFailed extends Error {}
