"""Static files with DEBUG off: WhiteNoise's compressed, hashed names."""
from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    # A file missing from the manifest (collectstatic not re-run after an update) is served by its plain
    # name rather than failing the page with a 500.
    manifest_strict = False
