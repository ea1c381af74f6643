"""The offline catalog builder: price tables → the compact catalog (`build`), GCP's tables
(`gcp`), `gpulint catalog update` (`update`), and the checks a build must pass (`consistency`,
`checks`). Scans never import it; only the CLI's catalog commands and scripts/ do."""
