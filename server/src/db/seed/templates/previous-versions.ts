// Earlier texts of the shipped templates, by key: the SHA-256 of each version's bytes (.docx) or of
// its trimmed text (.html). An install whose template is still exactly one of these (the operator has
// not changed it) gets the current text on its next start (upgradeShippedTemplates); anything else is
// the operator's own and is kept. When a shipped file changes, add the hash of the version it replaces.

export const PREVIOUS_SHIPPED_VERSIONS: Readonly<Record<string, readonly string[]>> = {
  // Issue 19 (821775a3), replaced in issue 28: «[нет данных]», «в период открытые даты», doubled quotes, a package's share of price.
  contract: ['09df0c325c4bc895f6aa82305c0c05d835ff929a26e6eaf51663a95f918e3c12'],
  'certificate-conference': ['969e4ebdcad4380766c3f4ffa35ee29edd9e2495962a81473eead344d33dae95'],
  'certificate-webinar': ['69d1e248bc30572287af9b2c939affc7acf739f56619c0c11a6b39b5bdbc115e'],
  'certificate-qualification': ['6ecbd7e734194f050899b873f6f4b29470720a3fc1caa4bf4bf6cc50df863425'],
  'certificate-retraining': ['51194380cdeef34d4ed97a714a9752cbcaaa6fa22a79e4a83ede040e3af4b319'],
  'certificate-publication': ['c00c14e292717c906483be15630f5321ed3e40c3480af4e5c48cce7672d4172d'],
  'certificate-seminar': ['9cf056bc573267218831425d2cdc8a6e6a59883f9b5a9345cb3e2eadfbeff609'],
  'certificate-master-class': ['a739fb6948ce60762b4cb8b01e122f80b30252970fbe934b5fac7080e82b499a'],
  'certificate-round-table': ['08bfbe2d8e7365b3ff796d626e654befa0cfdaf0d3f046d3262019a8a769b7d6'],
  'certificate-olympiad': ['35b54d42902779225c1445986e0bf3e8d14ea06c0df0bf7724d592ffbc46edde'],
  'certificate-forum': ['8cc23fe9647bb7b3632d3df2cdbf41a570929e49d70becff2b5deac154ce84e0'],
  'certificate-contest': ['aeb8ddbfbec01363d7b99c4c640c9ac5b60d59e04a8e1f6548f89202214929f5'],
  'certificate-internship': ['25e06ab8edeedb8c3cdb0c3025766fa1a5caf77ac1ee57242c9442f5452e6a57'],
  'program-course': ['a1ba31c83a0febfb620e53d24b1484af24807b548e6fca0ed0685d421a65f2eb'],
  'program-event': ['7618f4c1a8eef245dbd16b8d144fabf9d3f1de4090af2d0ff4dc75b46121d39f'],
  'registration-list': ['2fe68806afaaf542f595c433dda86c0978c002c667039e1cdd96b867a8cf0740'],
};
