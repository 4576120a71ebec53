from typing import Any, Optional, Union
import os

from . import _Json

__all__ = ["layout", "arguments"]

def arguments(env: Any) -> dict[str, Any]: ...
def layout(env: Any, description: Union[str, bytes, os.PathLike[str], None] = None) -> _Json: ...
