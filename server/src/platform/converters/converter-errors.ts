import { PrintMessages } from '@edu/domain/documents/print';

/** A converter that is not installed or failed to start: answered 503 with this Russian text. */
export class ConverterUnavailable extends Error {
  constructor(message: string) {
    super(message);
  }
}

/**
 * A conversion that hung past the converter's time limit: its process was killed and is being
 * replaced, so trying again works; answered 503 like an absent converter, with this text.
 */
export class ConverterTimeout extends ConverterUnavailable {
  constructor(seconds: number) {
    super(`Документ не удалось преобразовать в PDF за ${seconds} с: конвертер перезапущен, попробуйте ещё раз`);
  }
}

/** The converter's queue is full (decision 021): answered 503 with this text; trying later works. */
export class ConverterBusy extends ConverterUnavailable {
  constructor() {
    super(PrintMessages.printQueueFull);
  }
}

/** The document could not be converted (a broken file): answered 422. */
export class ConversionFailed extends Error {}
