// Counter's English: the one dictionary of the language, in its three parts (what the screens show, what the core
// says, what is printed on paper). Its shape is every language's (Words): hi/index.ts is typed against it.
import { paperEn } from './paper'
import { saidEn } from './said'
import { screenEn } from './screen'

export const en = { screen: screenEn, said: saidEn, paper: paperEn }

export type Words = typeof en
