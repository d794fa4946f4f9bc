// zxcvbn and its dictionaries are loaded only when the registration page asks for them.

export type PasswordScore = 0 | 1 | 2 | 3 | 4;
type Scorer = (password: string, userInputs?: string[]) => PasswordScore;

let scorer: Promise<Scorer> | null = null;

export function loadPasswordScorer(): Promise<Scorer> {
  scorer ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')])
    .then(([core, common]) => {
      const factory = new core.ZxcvbnFactory({
        graphs: common.adjacencyGraphs,
        dictionary: { ...common.dictionary },
      });
      return (password: string, userInputs: string[] = []) => factory.check(password, userInputs).score as PasswordScore;
    })
    .catch((error: unknown) => {
      scorer = null;
      throw error;
    });
  return scorer;
}
