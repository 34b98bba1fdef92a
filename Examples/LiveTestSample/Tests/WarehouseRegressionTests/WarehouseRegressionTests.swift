// Tests exported from the scope of a test that failed in a live test session go in this target, one file each:
//
//     mischief export --scope '#1' --socket LiveTestSamplePackageTests --import Warehouse \
//         --register 'Warehouse.registerSeams(in:)' > Tests/WarehouseRegressionTests/CountsApplesRegressionTests.swift
//
// LiveTestEndToEndTests writes one here (ignored by git), builds it and runs it, then removes it.
