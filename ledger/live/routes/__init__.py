"""The live service's routes, one ``APIRouter`` per area: :mod:`.api` (the JSON API and
the live feed), :mod:`.table` (a table device's pages), :mod:`.director` (the console and
the board pages), :mod:`.committee` (appeals, case files, the register), :mod:`.auth`
(sign-in, sign-out, the home redirect; the safeguards of sign-in are ``ledger.live.signin``)
and :mod:`.service` (the health check, the pages' script)."""
