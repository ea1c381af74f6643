"""Rendering: Helm charts, helmfiles, gotmpl values, kustomizations and their helmCharts turned
into Kubernetes objects before facts are built, and Helm values read where a chart cannot be
rendered. `render(found, settings)` is the stage's entry point (in `render.templates`)."""
