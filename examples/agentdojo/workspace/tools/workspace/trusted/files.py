"""What a program may promise about the cloud drive: which files are created, changed, shared
(with whom) or deleted."""

from tools.workspace.trusted.effects import append_to_file, create_file, delete_file, share_file

from clauz3.spec import ContractSpec, contract, effect


@contract(description="no file is deleted")
def no_deletes() -> ContractSpec:
    return effect(delete_file).empty()


@contract(description="only file {file_id} is deleted")
def deletes_only(file_id: str) -> ContractSpec:
    return effect(delete_file).all(lambda e: e.file_id == file_id)


@contract(description="only files named {filenames} are created")
def creates_only(filenames: list[str]) -> ContractSpec:
    return effect(create_file).all(lambda e: e.filename in filenames)


@contract(description="only file {file_id} is appended to")
def appends_only(file_id: str) -> ContractSpec:
    return effect(append_to_file).all(lambda e: e.file_id == file_id)


@contract(description="files are shared only with {email}, read-only")
def shares_read_only_with(email: str) -> ContractSpec:
    return effect(share_file).all(lambda e: e.email == email and e.permission == "r")


@contract(description="no file is shared")
def no_shares() -> ContractSpec:
    return effect(share_file).empty()


@contract(description="no file is created, changed, shared or deleted")
def unchanged() -> ContractSpec:
    return effect(create_file, append_to_file, share_file, delete_file).empty()


@contract(description="no file is created")
def no_creates() -> ContractSpec:
    return effect(create_file).empty()


@contract(description="no file is appended to")
def no_appends() -> ContractSpec:
    return effect(append_to_file).empty()


@contract(description="at most {count} appends are made to files")
def appends_at_most(count: int) -> ContractSpec:
    return effect(append_to_file).count() <= count
